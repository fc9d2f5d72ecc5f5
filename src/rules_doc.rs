//! The rules reference, `docs/rules.md`, as data: rule ID → title and text, and condition name →
//! what the condition does. The HUD draws its tooltips from here (a condition badge, the rule IDs
//! a log entry cites), so the reference and the tooltips never disagree.
//!
//! The document is embedded at build time. Its shape (checked by the integration tests):
//!
//! ```text
//! ### P2-22 — Effects counted in your turns tick at your end of turn
//!
//! Text, one or more paragraphs.
//!
//! - Code: [`src/rules/phases.rs`](../src/rules/phases.rs) `tick_owner_turns`
//! - Test: [`tests/integration/p2_rules.rs`](../tests/integration/p2_rules.rs) `p2_22_...`
//!
//! ### Condition: frightened — Frightened
//!
//! Text.
//!
//! - Rules: P2-24, G-P2-06
//! ```
//!
//! Headless: no game, egui or rules-engine dependency.

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The reference as shipped.
pub const SOURCE: &str = include_str!("../docs/rules.md");

/// A link from an entry to a file of the repository, and the item in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Path relative to the repository root (`src/rules/phases.rs`).
    pub path: String,
    /// The function, type or test named after the link, if any (`tick_owner_turns`).
    pub item: Option<String>,
}

/// One `###` section: a rule, a gap default or a condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The rule ID (`P2-22`, `G-X-01`) or, for a condition, its id (`frightened`).
    pub key: String,
    /// The heading's title.
    pub title: String,
    /// The text: paragraphs separated by a blank line, each on one line.
    pub text: String,
    /// `- Code:` links.
    pub code: Vec<Link>,
    /// `- Test:` links.
    pub tests: Vec<Link>,
    /// `- Rules:` IDs (conditions).
    pub rules: Vec<String>,
    /// 1-based line of the heading in the document.
    pub line: usize,
}

/// The parsed reference.
#[derive(Debug, Clone, Default)]
pub struct RulesDoc {
    rules: BTreeMap<String, Entry>,
    conditions: BTreeMap<String, Entry>,
}

/// Whether `s` is a whole rule ID: `HB-07`, `P2-22`, `P1-30`, `SG-43`, `G-HB-01`, `G-P2-10`,
/// `G-P1-05`, `G-SG-12`, `G-X-04`.
pub(crate) fn is_rule_id(s: &str) -> bool {
    id_len(s) == Some(s.len())
}

/// The length of the rule ID at the start of `s`, if one starts there.
fn id_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let (gap, rest) = if s.starts_with("G-") { (true, 2) } else { (false, 0) };
    let prefix_len = ["HB-", "P2-", "P1-", "SG-", "X-"]
        .iter()
        .find(|p| s[rest..].starts_with(**p) && (gap || **p != "X-"))
        .map(|p| p.len())?;
    let start = rest + prefix_len;
    let digits = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
    (digits > 0).then_some(start + digits)
}

/// Every rule ID cited in free text (a log entry's reason, a ruleset comment), in order, without
/// repeats: `"P2-23/24"` gives `P2-23` only, `"(G-X-01, HB-46)"` gives both.
pub fn rule_ids(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let boundary = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'-' || b[i - 1] == b'_');
        if boundary
            && text.is_char_boundary(i)
            && let Some(n) = id_len(&text[i..])
        {
            let after_ok = b.get(i + n).is_none_or(|c| !c.is_ascii_alphanumeric());
            if after_ok {
                let id = &text[i..i + n];
                if !out.contains(&id) {
                    out.push(id);
                }
                i += n;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// A condition name as the lookup keys it: lower case, `-` and spaces as `_`
/// (`"Flat-footed"` → `flat_footed`).
fn condition_key(name: &str) -> String {
    name.trim().to_lowercase().chars().map(|c| if c == '-' || c == ' ' { '_' } else { c }).collect()
}

/// `[`path`](../path) `item`` → the link.
fn parse_link(s: &str) -> Option<Link> {
    let open = s.find("](")?;
    let close = open + s[open..].find(')')?;
    let target = s[open + 2..close].trim();
    let path = target.strip_prefix("../").unwrap_or(target).to_string();
    if path.is_empty() {
        return None;
    }
    let rest = s[close + 1..].trim();
    let item = rest.strip_prefix('`').and_then(|r| r.strip_suffix('`')).map(str::to_string);
    if !rest.is_empty() && item.is_none() {
        return None;
    }
    Some(Link { path, item })
}

impl RulesDoc {
    /// Parse a reference. Errors name the line: a `###` heading without ` — `, an unknown key,
    /// a repeated key, a malformed link.
    pub fn parse(text: &str) -> Result<RulesDoc, String> {
        let mut doc = RulesDoc::default();
        let mut cur: Option<(Entry, bool, Vec<String>)> = None;
        let mut paragraph: Vec<String> = Vec::new();
        let finish = |doc: &mut RulesDoc, cur: Option<(Entry, bool, Vec<String>)>| -> Result<(), String> {
            let Some((mut e, is_condition, paras)) = cur else { return Ok(()) };
            e.text = paras.join("\n\n");
            let map = if is_condition { &mut doc.conditions } else { &mut doc.rules };
            if let Some(old) = map.get(&e.key) {
                return Err(format!("line {}: `{}` is already described at line {}", e.line, e.key, old.line));
            }
            map.insert(e.key.clone(), e);
            Ok(())
        };
        for (n, raw) in text.lines().enumerate() {
            let line = raw.trim_end();
            let lineno = n + 1;
            if line.starts_with('#') {
                if let Some((_, _, paras)) = cur.as_mut()
                    && !paragraph.is_empty()
                {
                    paras.push(paragraph.join(" "));
                }
                paragraph.clear();
                finish(&mut doc, cur.take())?;
                let Some(h) = line.strip_prefix("### ") else { continue };
                let (key, title) =
                    h.split_once(" — ").ok_or_else(|| format!("line {lineno}: a `###` heading needs `KEY — Title`"))?;
                let (key, is_condition) = match key.strip_prefix("Condition: ") {
                    Some(c) => {
                        let k = c.trim();
                        if k.is_empty()
                            || !k.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_')
                        {
                            return Err(format!("line {lineno}: condition id `{k}` must be lower case with `_`"));
                        }
                        (k.to_string(), true)
                    }
                    None if is_rule_id(key.trim()) => (key.trim().to_string(), false),
                    None => return Err(format!("line {lineno}: `{key}` is neither a rule ID nor `Condition: id`")),
                };
                let title = title.trim();
                if title.is_empty() {
                    return Err(format!("line {lineno}: `{key}` has no title"));
                }
                let entry = Entry {
                    key,
                    title: title.to_string(),
                    text: String::new(),
                    code: Vec::new(),
                    tests: Vec::new(),
                    rules: Vec::new(),
                    line: lineno,
                };
                cur = Some((entry, is_condition, Vec::new()));
                continue;
            }
            let Some((entry, _, paras)) = cur.as_mut() else { continue };
            let t = line.trim();
            if let Some(l) = t.strip_prefix("- Code:") {
                entry.code.push(parse_link(l.trim()).ok_or_else(|| format!("line {lineno}: malformed code link"))?);
            } else if let Some(l) = t.strip_prefix("- Test:") {
                entry.tests.push(parse_link(l.trim()).ok_or_else(|| format!("line {lineno}: malformed test link"))?);
            } else if let Some(l) = t.strip_prefix("- Rules:") {
                for id in l.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    if !is_rule_id(id) {
                        return Err(format!("line {lineno}: `{id}` is not a rule ID"));
                    }
                    entry.rules.push(id.to_string());
                }
            } else if t.is_empty() {
                if !paragraph.is_empty() {
                    paras.push(paragraph.join(" "));
                    paragraph.clear();
                }
            } else {
                paragraph.push(t.to_string());
            }
        }
        if let Some((_, _, paras)) = cur.as_mut()
            && !paragraph.is_empty()
        {
            paras.push(paragraph.join(" "));
        }
        finish(&mut doc, cur.take())?;
        Ok(doc)
    }

    /// A rule or gap default by ID (`"P2-22"`).
    pub fn rule(&self, id: &str) -> Option<&Entry> {
        self.rules.get(id.trim())
    }

    /// A condition by id or name: `"flat_footed"`, `"Flat-footed"`, `"Persistent damage (fire)"`.
    pub fn condition(&self, name: &str) -> Option<&Entry> {
        let key = condition_key(name);
        self.conditions.get(&key).or_else(|| self.conditions.values().find(|e| condition_key(&e.title) == key))
    }

    /// Every rule and gap default, by ID.
    pub fn rules(&self) -> impl Iterator<Item = &Entry> {
        self.rules.values()
    }

    /// Every condition, by id.
    pub fn conditions(&self) -> impl Iterator<Item = &Entry> {
        self.conditions.values()
    }
}

/// The shipped reference, parsed once. An error names the line (the integration tests keep the
/// shipped file parseable).
pub fn doc() -> Result<&'static RulesDoc, &'static str> {
    static DOC: OnceLock<Result<RulesDoc, String>> = OnceLock::new();
    DOC.get_or_init(|| RulesDoc::parse(SOURCE)).as_ref().map_err(String::as_str)
}

/// The reference in other languages (issue 24): the same `###` entries, titles and texts
/// translated, without the code and test links. Code → text.
pub const TRANSLATIONS: [(&str, &str); 2] =
    [("es", include_str!("../docs/rules.es.md")), ("ko", include_str!("../docs/rules.ko.md"))];

/// The reference in a language (`None` for English or a language without one), parsed once.
pub fn doc_in(code: &str) -> Option<&'static RulesDoc> {
    static DOCS: OnceLock<Vec<(&'static str, Result<RulesDoc, String>)>> = OnceLock::new();
    let docs = DOCS.get_or_init(|| TRANSLATIONS.iter().map(|(c, t)| (*c, RulesDoc::parse(t))).collect());
    docs.iter().find(|(c, _)| *c == code).and_then(|(_, d)| d.as_ref().ok())
}

/// A rule's title and text by ID in a language, falling back to English entry by entry.
pub(crate) fn rule_in(code: &str, id: &str) -> Option<(&'static str, &'static str)> {
    doc_in(code).and_then(|d| d.rule(id)).map(|e| (e.title.as_str(), e.text.as_str())).or_else(|| rule(id))
}

/// A condition's name and text by id in a language, falling back to English.
pub(crate) fn condition_in(code: &str, id: &str) -> Option<(&'static str, &'static str)> {
    doc_in(code).and_then(|d| d.condition(id)).map(|e| (e.title.as_str(), e.text.as_str())).or_else(|| condition(id))
}

/// A rule's title and text by ID, for a tooltip: `rule("P2-22")`.
pub fn rule(id: &str) -> Option<(&'static str, &'static str)> {
    doc().ok()?.rule(id).map(|e| (e.title.as_str(), e.text.as_str()))
}

/// A condition's name and text by id or name, for a tooltip: `condition("Frightened")`.
pub fn condition(name: &str) -> Option<(&'static str, &'static str)> {
    doc().ok()?.condition(name).map(|e| (e.title.as_str(), e.text.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_recognised_whole() {
        for id in ["HB-07", "P2-22", "P1-30", "SG-43", "G-HB-01", "G-P2-10", "G-P1-05", "G-SG-12", "G-X-04"] {
            assert!(is_rule_id(id), "{id}");
        }
        for not in ["X-01", "HB-", "HB-7a", "EX-HB-1", "G-Q-01", "P3-01", "hb-07"] {
            assert!(!is_rule_id(not), "{not}");
        }
        assert_eq!(rule_ids("persistent (P2-23/24), see G-X-01 and P2-23; EX-HB-1 is an example"), ["P2-23", "G-X-01"]);
    }

    #[test]
    fn parse_reads_entries_links_and_paragraphs() {
        let text = "# T\n\nintro\n\n### P2-22 — Ticks\n\nOne\ntwo.\n\nThree.\n\n- Code: [`src/a.rs`](../src/a.rs) `f`\n\
                    - Test: [`tests/s.ron`](../tests/s.ron)\n\n## Next\n\n### Condition: flat_footed — Flat-footed\n\nNo Dex.\n\
                    - Rules: P1-18, G-P1-05\n";
        let d = RulesDoc::parse(text).unwrap();
        let e = d.rule("P2-22").unwrap();
        assert_eq!((e.title.as_str(), e.text.as_str()), ("Ticks", "One two.\n\nThree."));
        assert_eq!(e.code, [Link { path: "src/a.rs".into(), item: Some("f".into()) }]);
        assert_eq!(e.tests, [Link { path: "tests/s.ron".into(), item: None }]);
        let c = d.condition("Flat-footed").unwrap();
        assert_eq!((c.text.as_str(), c.rules.len()), ("No Dex.", 2));
        assert!(d.condition("flat footed").is_some() && d.condition("prone").is_none());
    }

    #[test]
    fn parse_errors_name_the_line() {
        assert!(RulesDoc::parse("### P2-22 Ticks\n").unwrap_err().starts_with("line 1:"));
        assert!(RulesDoc::parse("x\n### Q-1 — T\n").unwrap_err().starts_with("line 2:"));
        let dup = "### HB-01 — A\n\n### HB-01 — B\n";
        assert!(RulesDoc::parse(dup).unwrap_err().contains("already described at line 1"));
        assert!(RulesDoc::parse("### HB-01 — A\n- Code: nothing\n").unwrap_err().contains("line 2"));
    }
}
