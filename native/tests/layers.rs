//! The crate's modules import only lower ones, in the order of the design notes:
//! constraints, frontier, count (with combine under it), exact, whatif and sample, game, players,
//! simulate and vision, bindings; the helpers (ints, hash, limits, mt) below them all. Every
//! `crate::` path of a module's code (its tests apart) is checked.

use std::fs;
use std::path::Path;

/// Each module's rank: a module may name only modules of a rank at most its own.
const RANKS: &[(&str, u32)] = &[
    ("hash", 0),
    ("ints", 0),
    ("limits", 0),
    ("mt", 0),
    ("constraints", 1),
    ("frontier", 2),
    ("combine", 3),
    ("count", 4),
    ("exact", 5),
    ("explain", 5), // why an exact analysis found no layout, the reference's way
    ("whatif", 6),
    ("sample", 6), // layouts drawn uniformly from a position, for search's rollouts
    ("game", 7),
    ("players", 8),
    ("simulate", 9),
    ("vision", 9), // the screenshot reader's kernels: a leaf, serving layer 8 as simulate does
    ("error", 10), // the bindings' one error, from every module's
    ("play_bindings", 10),
    ("vision_bindings", 10),
    ("lib", 10),
];

fn rank(module: &str) -> u32 {
    RANKS
        .iter()
        .find(|(m, _)| *m == module)
        .unwrap_or_else(|| panic!("module {module} has no rank: add it to RANKS"))
        .1
}

/// The `crate::` modules named in `code`.
fn named(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name == "{" || name.is_empty() {
            // `crate::{a, b}`: each name in the braces
            if let Some(inner) = rest.strip_prefix('{') {
                let end = inner.find('}').unwrap_or(inner.len());
                for part in inner[..end].split(',') {
                    let n: String = part
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !n.is_empty() {
                        out.push(n);
                    }
                }
            }
        } else {
            out.push(name);
        }
    }
    out
}

#[test]
fn modules_import_only_lower_ones() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut checked = 0;
    let mut files = Vec::new();
    for entry in fs::read_dir(&src).unwrap() {
        files.push(entry.unwrap().path());
    }
    for entry in fs::read_dir(src.join("players")).unwrap() {
        files.push(entry.unwrap().path());
    }
    for path in files {
        let test_only = path.file_stem().is_some_and(|s| s == "testing");
        if path.extension().is_none_or(|e| e != "rs") || test_only {
            continue;
        }
        let module = if path.parent().unwrap().ends_with("players") {
            "players".to_string()
        } else {
            path.file_stem().unwrap().to_string_lossy().into_owned()
        };
        let text = fs::read_to_string(&path).unwrap();
        // the code before the tests (`#[cfg(test)]` modules sit at the end); a doc
        // comment may name any module
        let end = [
            "#[cfg(test)]\nmod tests",
            "#[cfg(test)]\npub(crate) mod tests",
        ]
        .iter()
        .filter_map(|m| text.find(m))
        .min()
        .unwrap_or(text.len());
        let code: String = text[..end]
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let own = rank(&module);
        for other in named(&code) {
            if ["tests", "deadline", "guarded", "stop_error", "Inconsistent"]
                .contains(&other.as_str())
            {
                continue; // the bindings' own helpers in lib.rs
            }
            assert!(
                rank(&other) <= own,
                "{}: module {module} imports the higher module {other}",
                path.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 15, "{checked} files checked");
}
