//! The repository stands alone: `data/` and `specs/` are copies of the project's shared test data
//! and specs (`../shared/` beside the checkout, replaced from outside). `data/MANIFEST` lists every
//! file with its size and FNV-1a hash (of the uncompressed text for the one gzipped file), so a
//! clone checks its own copy, and where `../shared` exists the test also checks that the copy is
//! still equal to it. To refresh after `../shared` changed: copy the files (gzip
//! `piranhas/playouts_small.jsonl`), then run this test with `KIBITZ_WRITE_MANIFEST=1`.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Every file under `root/data` and `root/specs`, keyed `data/...` (a `.gz` file by its name
/// without `.gz`), with its size and hash of the uncompressed bytes.
fn listing(root: &Path) -> BTreeMap<String, (usize, u64)> {
    let mut out = BTreeMap::new();
    for top in ["data", "specs"] {
        let mut stack = vec![root.join(top)];
        while let Some(dir) = stack.pop() {
            let entries =
                std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            for entry in entries {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if rel == "data/MANIFEST" {
                    continue;
                }
                let raw = std::fs::read(&path).unwrap();
                let (key, bytes) = match rel.strip_suffix(".gz") {
                    Some(stem) => {
                        let mut text = Vec::new();
                        flate2::read::GzDecoder::new(&raw[..])
                            .read_to_end(&mut text)
                            .unwrap_or_else(|e| panic!("{rel}: {e}"));
                        (stem.to_string(), text)
                    }
                    None => (rel, raw),
                };
                out.insert(key, (bytes.len(), fnv1a(&bytes)));
            }
        }
    }
    out
}

fn format(listing: &BTreeMap<String, (usize, u64)>) -> String {
    listing
        .iter()
        .map(|(path, (len, hash))| format!("{hash:016x} {len:>9} {path}\n"))
        .collect()
}

#[test]
fn data_and_specs_match_the_manifest_and_shared() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let manifest_path = repo.join("data/MANIFEST");
    let ours = format(&listing(&repo));
    if std::env::var_os("KIBITZ_WRITE_MANIFEST").is_some() {
        std::fs::write(&manifest_path, &ours).unwrap();
    }
    let manifest = std::fs::read_to_string(&manifest_path).expect("data/MANIFEST present");
    assert_eq!(ours, manifest, "data/ or specs/ differ from data/MANIFEST");
    assert!(
        manifest.lines().count() > 50,
        "the manifest lists the data files"
    );

    let shared = repo.join("../shared");
    if shared.join("data").is_dir() && shared.join("specs").is_dir() {
        let theirs = format(&listing(&shared));
        assert_eq!(
            theirs, manifest,
            "../shared/data or ../shared/specs changed: copy them into data/ and specs/ (see this file's doc)"
        );
        eprintln!("data_mirror: data/ and specs/ equal ../shared");
    } else {
        eprintln!("data_mirror: no ../shared beside the checkout; checked data/ against data/MANIFEST only");
    }
}
