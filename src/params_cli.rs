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

/// Flags of `kibitz params <game>`: the same listing as `kibitz <game> params`, the game
/// looked up in the registry.
#[derive(clap::Args, Debug, Clone)]
pub struct GameParamsArgs {
    /// The game (the help lists the registry's games with tunables).
    #[arg(
        help = crate::registry::help(crate::registry::params_of),
        long_help = crate::registry::long_help(crate::registry::params_of)
    )]
    pub game: String,
    /// How to print.
    #[command(flatten)]
    pub how: ParamsArgs,
}

/// Runs `kibitz params <game>`.
pub fn run(args: GameParamsArgs) -> anyhow::Result<()> {
    let specs = crate::registry::lookup(&args.game, "kibitz params", crate::registry::params_of)?;
    print(&specs(), &args.how);
    Ok(())
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
        let all: Vec<_> = crate::registry::GAMES
            .iter()
            .filter_map(|g| g.params.map(|p| (g.name, p())))
            .collect();
        assert_eq!(
            all.len(),
            4,
            "connect4, piranhas, maumau and koehandel list tunables"
        );
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
