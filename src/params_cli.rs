//! `kibitz <game> params [--json]`: the engine's tunables, for people (a tab-separated table)
//! and for the tuning scripts (a JSON array of name, default, min, max, step, doc).

use kibitz_search::params::{ParamSpec, SpecTable};

/// Flags of `kibitz <game> params`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ParamsArgs {
    /// Print a JSON array (`[{"name", "default", "min", "max", "step", "doc"}]`) instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Prints `specs` as the flags ask.
pub fn print(specs: &[ParamSpec], args: &ParamsArgs) {
    if args.json {
        println!("{}", to_json(specs));
    } else {
        print!("{}", SpecTable(specs));
    }
}

/// The JSON listing the tuning scripts read.
pub fn to_json(specs: &[ParamSpec]) -> serde_json::Value {
    serde_json::Value::Array(
        specs
            .iter()
            .map(|s| {
                serde_json::json!({
                    "name": s.name,
                    "default": s.default,
                    "min": s.min,
                    "max": s.max,
                    "step": s.step,
                    "doc": s.doc,
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_engine_lists_params_with_sane_ranges() {
        let all = [
            ("connect4", kibitz_connect4::param_specs()),
            ("piranhas", kibitz_piranhas::param_specs()),
            ("maumau", kibitz_maumau::param_specs()),
            ("koehandel", kibitz_koehandel::param_specs()),
        ];
        for (game, specs) in all {
            assert!(!specs.is_empty(), "{game} lists no tunables");
            for s in &specs {
                assert!(
                    s.min <= s.default && s.default <= s.max && s.step > 0.0,
                    "{game}: {s:?}"
                );
            }
            let json = to_json(&specs);
            assert_eq!(json.as_array().map(Vec::len), Some(specs.len()));
            assert_eq!(json[0]["name"], specs[0].name);
        }
    }
}
