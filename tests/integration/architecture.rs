//! The layers of `docs/architecture.md` hold in the code: every module imports only what its
//! "may import" cell lists (issue 25).
//!
//! The check reads the code, not a grep: comments and string literals are skipped, `use` trees
//! (`use super::{state::X, y}`) are expanded, `super::` and `self::` are resolved against the file's
//! module and any inline `mod name { .. }` around them, and every path counts, in `use` lines and
//! in the body alike (`crate::scenario::load(..)`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The table of `docs/architecture.md`: unit → the units it may import.
fn allowed(doc: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for line in doc.lines() {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() != 3 || !cells[0].starts_with('`') {
            continue;
        }
        let unit = cells[0].trim_matches('`').to_string();
        let may: BTreeSet<String> = cells[2]
            .split(',')
            .map(|s| s.trim().trim_matches('`').to_string())
            .filter(|s| !s.is_empty() && s != "—")
            .collect();
        assert!(out.insert(unit.clone(), may).is_none(), "docs/architecture.md lists `{unit}` twice");
    }
    out
}

/// The text of a Rust file with comments and the insides of string and char literals blanked
/// out (lengths kept, so positions stay meaningful).
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(if b[i] == '\n' { '\n' } else { ' ' });
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !prev_is_ident(&b, i) {
            // A raw string: r"..", r#".."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            out.extend(std::iter::repeat_n(' ', j - i - 2));
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                if b[j] == '\\' {
                    j += 1;
                }
                j += 1;
            }
            out.push_str("\"\"");
            out.extend(std::iter::repeat_n(' ', (j + 1).min(b.len()) - i - 2));
            i = j + 1;
        } else if c == '\'' && char_literal_end(&b, i).is_some() {
            let j = char_literal_end(&b, i).unwrap_or(i);
            out.extend(std::iter::repeat_n(' ', j + 1 - i));
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn prev_is_ident(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// Where a char literal starting at `i` ends (`'a'`, `'\n'`, `'\''`, `'\u{41}'`); `None` for a
/// lifetime (`'a`).
fn char_literal_end(b: &[char], i: usize) -> Option<usize> {
    if b.get(i + 1) == Some(&'\\') {
        let mut j = i + 2;
        while j < b.len() && j < i + 12 {
            if b[j] == '\'' && j > i + 2 {
                return Some(j);
            }
            j += 1;
        }
        return None;
    }
    (b.get(i + 2) == Some(&'\'')).then_some(i + 2)
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths a use tree (or a plain path) starting at `at` names, each as its segments. `a::{b,
/// c::{d, e}}` gives `a::b`, `a::c::d`, `a::c::e`; a glob gives the path before it.
fn paths_at(code: &[char], at: usize) -> Vec<Vec<String>> {
    fn tree(code: &[char], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let mut segs = prefix;
        loop {
            while *i < code.len() && code[*i].is_whitespace() {
                *i += 1;
            }
            if *i < code.len() && code[*i] == '{' {
                *i += 1;
                loop {
                    while *i < code.len() && (code[*i].is_whitespace() || code[*i] == ',') {
                        *i += 1;
                    }
                    if *i >= code.len() || code[*i] == '}' {
                        *i += 1;
                        return;
                    }
                    tree(code, i, segs.clone(), out);
                }
            }
            if *i < code.len() && code[*i] == '*' {
                *i += 1;
                out.push(segs);
                return;
            }
            let start = *i;
            while *i < code.len() && is_ident(code[*i]) {
                *i += 1;
            }
            if *i == start {
                out.push(segs);
                return;
            }
            segs.push(code[start..*i].iter().collect());
            if code.get(*i) == Some(&':') && code.get(*i + 1) == Some(&':') {
                *i += 2;
                continue;
            }
            // `x as y`, `,`, `;`, `(`, `}`...: the path ends here.
            out.push(segs);
            return;
        }
    }
    let mut out = Vec::new();
    let mut i = at;
    tree(code, &mut i, Vec::new(), &mut out);
    out
}

/// Every crate path the file's code names, resolved to absolute module segments (without
/// `crate`). `module` is the file's own module path (`["game", "battle"]`).
fn references(text: &str, module: &[String], crate_names: &[&str]) -> Vec<Vec<String>> {
    let code: Vec<char> = code_only(text).chars().collect();
    let mut out = Vec::new();
    // Inline modules open at a brace depth: `mod tests {` pushes `tests`.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let word_at = |i: usize, w: &str| {
        let ws: Vec<char> = w.chars().collect();
        code.get(i..i + ws.len()) == Some(&ws[..])
            && !(i > 0 && (is_ident(code[i - 1]) || code[i - 1] == ':'))
            && !(ws.last().is_some_and(|c| is_ident(*c)) && code.get(i + ws.len()).is_some_and(|c| is_ident(*c)))
    };
    while i < code.len() {
        let c = code[i];
        if c == '{' {
            depth += 1;
        } else if c == '}' {
            depth = depth.saturating_sub(1);
            while inline.last().is_some_and(|(_, d)| *d > depth) {
                inline.pop();
            }
        } else if word_at(i, "mod") {
            // `mod name {`
            let mut j = i + 3;
            while code.get(j).is_some_and(|c| c.is_whitespace()) {
                j += 1;
            }
            let s = j;
            while code.get(j).is_some_and(|c| is_ident(*c)) {
                j += 1;
            }
            let name: String = code[s..j].iter().collect();
            while code.get(j).is_some_and(|c| c.is_whitespace()) {
                j += 1;
            }
            if code.get(j) == Some(&'{') && !name.is_empty() {
                depth += 1;
                inline.push((name, depth));
                i = j + 1;
                continue;
            }
        } else {
            let here: Vec<String> = module.iter().cloned().chain(inline.iter().map(|(n, _)| n.clone())).collect();
            let starts = crate_names.iter().find(|w| word_at(i, &format!("{w}::"))).map(|w| (w.len() + 2, None));
            let starts = starts.or_else(|| {
                // `super::super::x`, `self::x`
                if word_at(i, "self::") {
                    return Some((6, Some(here.clone())));
                }
                let mut j = i;
                let mut ups = 0;
                while word_at(j, "super::")
                    || (ups > 0 && code.get(j..j + 7) == Some(&"super::".chars().collect::<Vec<_>>()[..]))
                {
                    ups += 1;
                    j += 7;
                }
                (ups > 0).then(|| (j - i, Some(here[..here.len().saturating_sub(ups)].to_vec())))
            });
            if let Some((len, base)) = starts {
                for p in paths_at(&code, i + len) {
                    let mut full = base.clone().unwrap_or_default();
                    full.extend(p);
                    out.push(full);
                }
                i += len;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The unit a module path belongs to: a top-level module, or `game::<child>` for the game's
/// submodules (`game` alone is `src/game/mod.rs`).
fn unit(path: &[String], game_children: &BTreeSet<String>) -> Option<String> {
    match path {
        [] => None,
        [g, child, ..] if g == "game" && game_children.contains(child) => Some(format!("game::{child}")),
        [first, ..] => Some(first.clone()),
    }
}

fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root().join("src")).unwrap();
    let mut segs: Vec<String> = rel.iter().map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
    if segs.last().is_some_and(|s| s == "mod" || s == "lib") {
        segs.pop();
    }
    if segs == ["main"] {
        return vec!["main".into()];
    }
    segs
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every unit's imports of other units, with the files that make them.
fn imports() -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let src = root().join("src");
    let mut top: BTreeSet<String> = BTreeSet::new();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if name != "lib" && name != "main" {
            top.insert(name);
        }
    }
    let game_children: BTreeSet<String> = std::fs::read_dir(src.join("game"))
        .unwrap()
        .map(|e| e.unwrap().path().file_stem().unwrap().to_string_lossy().to_string())
        .filter(|n| n != "mod")
        .collect();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut out: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for f in files {
        let module = module_of(&f);
        let Some(me) = unit(&module, &game_children) else { continue }; // lib.rs
        // The binary names the library `skirmish`; the command line (`cli.rs`) does too (`use crate
        // as skirmish`).
        let names: &[&str] = if module == ["main"] || module == ["cli"] { &["crate", "skirmish"] } else { &["crate"] };
        let text = std::fs::read_to_string(&f).unwrap();
        let entry = out.entry(me.clone()).or_default();
        for p in references(&text, &module, names) {
            let Some(u) = unit(&p, &game_children) else { continue };
            if u != me && top.contains(p[0].as_str()) {
                let rel = f.strip_prefix(root()).unwrap().display().to_string();
                entry.entry(u).or_default().insert(rel);
            }
        }
    }
    out
}

#[test]
fn every_module_imports_only_what_docs_architecture_says_it_may() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let may = allowed(&doc);
    let found = imports();
    let mut wrong = Vec::new();
    for (unit, uses) in &found {
        let Some(ok) = may.get(unit) else {
            wrong.push(format!("`{unit}` is not in docs/architecture.md's table"));
            continue;
        };
        for (used, files) in uses {
            if !ok.contains(used) {
                let files: Vec<&str> = files.iter().map(String::as_str).collect();
                wrong.push(format!("{} ({unit}) imports {used}, which its row does not allow", files.join(", ")));
            }
        }
    }
    for unit in may.keys() {
        if !found.contains_key(unit) {
            wrong.push(format!("docs/architecture.md lists `{unit}`, which is not a module"));
        }
    }
    assert!(wrong.is_empty(), "the layers do not hold:\n{}", wrong.join("\n"));
    assert!(found.len() >= 15, "only {} modules found", found.len());
}

/// The table's "may import" cells form layers: no module may (even through others) import itself.
#[test]
fn docs_architecture_allows_no_cycle() {
    let may = allowed(&std::fs::read_to_string(root().join("docs/architecture.md")).unwrap());
    for start in may.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = may[start].iter().collect();
        while let Some(u) = stack.pop() {
            assert_ne!(u, start, "`{start}` may import itself through others");
            if seen.insert(u.clone())
                && let Some(next) = may.get(u)
            {
                stack.extend(next.iter());
            }
        }
    }
}

fn refs(text: &str, module: &[&str]) -> Vec<String> {
    let m: Vec<String> = module.iter().map(|s| s.to_string()).collect();
    references(text, &m, &["crate"]).into_iter().map(|p| p.join("::")).collect()
}

#[test]
fn the_reader_resolves_use_trees_super_inline_modules_and_skips_comments_and_strings() {
    // Grouped trees, nested groups and globs (the old substring test missed `super::{state::X}`).
    assert_eq!(
        refs("use super::{state::X, log::{A, B}};\nuse crate::sim::*;", &["rules", "driver"]),
        ["rules::state::X", "rules::log::A", "rules::log::B", "sim"]
    );
    // Paths in the body count; `super` from an inline module goes up from it.
    assert_eq!(
        refs("fn f() { crate::scenario::load(p); }\nmod tests {\n use super::super::game::Battle;\n}", &["encounter"]),
        ["scenario::load", "game::Battle"]
    );
    assert_eq!(refs("use self::inner::X;", &["game", "view"]), ["game::view::inner::X"]);
    // Comments, doc links and strings are not imports; lifetimes are not char literals.
    assert!(
        refs("// crate::game::x\n/// [`crate::game::y`]\nlet s = \"crate::game::z\"; /* crate::game */ fn f<'a>(x: &'a u8) {}", &[
            "rules"
        ])
        .is_empty()
    );
    // `a::b::crate::x` is not a crate path; `super` after a `::` is not either.
    assert!(refs("use other::crate_x::y;", &["rules"]).is_empty());
    assert_eq!(refs("let c = '\"'; crate::ai::play(c);", &["sim"]), ["ai::play"]);
}
