//! The game's languages (issue 24): Project Fluent catalogs, one file per language under
//! `assets/i18n/<code>.ftl`, and the player's choice of language.
//!
//! - The shipped catalogs (English, Spanish, Korean) are built into the binary; a catalog file
//!   under `assets/i18n/` with the same code replaces the built-in one, and a file with a new code
//!   adds a language. Adding a language is one catalog file (plus, optionally, `names` in data).
//! - [`Tr`] is what the HUD's view-models and the game's screens read their words through: the
//!   chosen language first, English where it lacks a message, the key itself last.
//! - Plurals and numbers follow each language through Fluent's CLDR plural rules
//!   (`{ $n -> [one] … *[other] … }`), never a hand-written `if n == 1`.
//! - The command line (`scenario`, `check`, `sim`, `replay`) stays in English: its output is
//!   compared byte for byte. Only the game reads this module.
//!
//! Headless: no game, egui or rules-engine dependency.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast;

mod settings;
pub use settings::{Settings, language_from_env};

/// The shipped catalogs: (code, file name, text).
const SHIPPED: [(&str, &str); 3] = [
    ("en", include_str!("../../assets/i18n/en.ftl")),
    ("es", include_str!("../../assets/i18n/es.ftl")),
    ("ko", include_str!("../../assets/i18n/ko.ftl")),
];

/// The shipped languages other than English: the ones `skirmish check` expects data names in.
pub(crate) fn translated_languages() -> Vec<&'static str> {
    SHIPPED.iter().map(|(c, _)| *c).filter(|c| *c != FALLBACK).collect()
}

/// Warnings for names that lack a shipped language: `what` (`ability `sword``), its `names`.
pub(crate) fn missing_names<'a>(items: impl Iterator<Item = (String, &'a BTreeMap<String, String>)>) -> Vec<String> {
    let langs = translated_languages();
    items
        .filter_map(|(what, names)| {
            let lacks: Vec<&str> = langs.iter().copied().filter(|l| !names.contains_key(*l)).collect();
            (!lacks.is_empty()).then(|| format!("{what} has no name in {}", lacks.join(", ")))
        })
        .collect()
}

/// The language every other falls back to.
pub const FALLBACK: &str = "en";

/// One language's catalog.
pub struct Catalog {
    /// Its code (`en`, `es`, `ko`): the catalog's file stem.
    pub code: String,
    /// Where it came from (`assets/i18n/es.ftl`, or `(built-in) es.ftl`).
    pub source: String,
    /// Its own name for itself (the message `language-name`), for the selector.
    pub name: String,
    bundle: FluentBundle<FluentResource>,
    /// The same text parsed once more, for reading its messages' shapes (the bundle keeps its
    /// own copy to itself).
    res: FluentResource,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog").field("code", &self.code).field("source", &self.source).finish()
    }
}

/// A catalog that could not be read: `file:line:col: what`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogError(pub String);

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// 1-based line and column of a byte offset.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = &text[..text.floor_char_boundary(at)];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

impl Catalog {
    /// Parse a catalog. A syntax error names the file, line and column; so does a message
    /// defined twice.
    pub fn parse(code: &str, source: &str, text: &str) -> Result<Catalog, CatalogError> {
        let lang: unic_langid::LanguageIdentifier = code
            .parse()
            .map_err(|_| CatalogError(format!("{source}: `{code}` is not a language code (en, es, ko, pt-BR …)")))?;
        let res = match FluentResource::try_new(text.to_string()) {
            Ok(r) => r,
            Err((_, errs)) => {
                let e = &errs[0];
                let (line, col) = line_col(text, e.pos.start);
                return Err(CatalogError(format!("{source}:{line}:{col}: Fluent syntax error: {}", e.kind)));
            }
        };
        let shape = FluentResource::try_new(text.to_string()).unwrap_or_else(|(r, _)| r);
        let mut bundle = FluentBundle::new_concurrent(vec![lang]);
        // No Unicode isolation marks around placeables: the HUD's fonts would draw them as boxes.
        bundle.set_use_isolating(false);
        // NUMBER($n, type: "ordinal") for 1st, 2nd, 3rd.
        let _ = bundle.add_builtins();
        if let Err(errs) = bundle.add_resource(res) {
            let what: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
            return Err(CatalogError(format!("{source}: {}", what.join("; "))));
        }
        let mut cat =
            Catalog { code: code.to_string(), source: source.to_string(), name: code.to_string(), bundle, res: shape };
        if let Some(n) = cat.format("language-name", None) {
            cat.name = n;
        }
        Ok(cat)
    }

    /// A message, if this catalog has it and it formats without errors.
    pub(crate) fn format(&self, key: &str, args: Option<&FluentArgs>) -> Option<String> {
        let msg = self.bundle.get_message(key)?;
        let pattern = msg.value()?;
        let mut errors = Vec::new();
        let s = self.bundle.format_pattern(pattern, args, &mut errors).into_owned();
        errors.is_empty().then_some(s)
    }

    /// Whether the catalog defines `key`.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.bundle.has_message(key)
    }

    /// Every message id, sorted.
    pub fn keys(&self) -> Vec<String> {
        self.messages().map(|m| m.id.name.to_string()).collect::<BTreeSet<_>>().into_iter().collect()
    }

    fn messages(&self) -> impl Iterator<Item = &ast::Message<&str>> {
        self.res.entries().filter_map(|e| match e {
            ast::Entry::Message(m) => Some(m),
            _ => None,
        })
    }

    /// The variables a message uses (`$who`, `$n`), in every variant of its selectors and in
    /// the messages it refers to (`{ n-actions }` passes its `$n` on).
    pub fn placeables(&self, key: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        self.vars_of(key, &mut out, 0);
        out
    }

    fn vars_of(&self, key: &str, out: &mut BTreeSet<String>, depth: u8) {
        if depth > 8 {
            return;
        }
        if let Some(m) = self.messages().find(|m| m.id.name == key)
            && let Some(p) = &m.value
        {
            let mut refs = Vec::new();
            pattern_vars(p, out, &mut refs);
            for r in refs {
                self.vars_of(&r, out, depth + 1);
            }
        }
    }
}

fn pattern_vars(p: &ast::Pattern<&str>, out: &mut BTreeSet<String>, refs: &mut Vec<String>) {
    for el in &p.elements {
        if let ast::PatternElement::Placeable { expression } = el {
            expression_vars(expression, out, refs);
        }
    }
}

fn expression_vars(e: &ast::Expression<&str>, out: &mut BTreeSet<String>, refs: &mut Vec<String>) {
    match e {
        ast::Expression::Select { selector, variants } => {
            inline_vars(selector, out, refs);
            for v in variants {
                pattern_vars(&v.value, out, refs);
            }
        }
        ast::Expression::Inline(i) => inline_vars(i, out, refs),
    }
}

fn inline_vars(i: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>, refs: &mut Vec<String>) {
    match i {
        ast::InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        ast::InlineExpression::MessageReference { id, .. } => refs.push(id.name.to_string()),
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_vars(a, out, refs);
            }
            for a in &arguments.named {
                inline_vars(&a.value, out, refs);
            }
        }
        ast::InlineExpression::Placeable { expression } => expression_vars(expression, out, refs),
        _ => {}
    }
}

/// Every language the game can show: the shipped ones, replaced or joined by catalog files.
#[derive(Debug)]
pub struct Catalogs {
    /// The catalogs, English first, then by code.
    pub list: Vec<Catalog>,
    /// Catalog files that could not be read (the built-in one of that code, if any, stays).
    pub errors: Vec<CatalogError>,
}

impl Catalogs {
    /// The built-in catalogs only.
    pub(crate) fn shipped() -> Arc<Catalogs> {
        static SHIPPED_CATS: OnceLock<Arc<Catalogs>> = OnceLock::new();
        SHIPPED_CATS.get_or_init(|| Arc::new(Catalogs::from_sources(Vec::new()))).clone()
    }

    /// The built-in catalogs, with every `*.ftl` file of `dir` replacing or adding to them.
    pub fn load(dir: &Path) -> Catalogs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "ftl"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        let mut extra = Vec::new();
        let mut errors = Vec::new();
        for f in files {
            let code = f.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
            match crate::rules::data::read_data_file(&f) {
                Ok(text) => extra.push((code, f.display().to_string(), text)),
                Err(e) => errors.push(CatalogError(e.to_string())),
            }
        }
        let mut c = Catalogs::from_sources(extra);
        errors.append(&mut c.errors);
        c.errors = errors;
        c
    }

    fn from_sources(extra: Vec<(String, String, String)>) -> Catalogs {
        let mut by_code: BTreeMap<String, Catalog> = BTreeMap::new();
        let mut errors = Vec::new();
        for (code, text) in SHIPPED {
            match Catalog::parse(code, &format!("(built-in) {code}.ftl"), text) {
                Ok(c) => {
                    by_code.insert(code.to_string(), c);
                }
                Err(e) => errors.push(e),
            }
        }
        for (code, source, text) in extra {
            match Catalog::parse(&code, &source, &text) {
                Ok(c) => {
                    by_code.insert(code, c);
                }
                Err(e) => errors.push(e),
            }
        }
        let mut list: Vec<Catalog> = Vec::new();
        if let Some(en) = by_code.remove(FALLBACK) {
            list.push(en);
        }
        list.extend(by_code.into_values());
        Catalogs { list, errors }
    }

    /// A catalog by code.
    pub fn get(&self, code: &str) -> Option<&Catalog> {
        self.list.iter().find(|c| c.code == code)
    }

    /// The codes, English first.
    pub fn codes(&self) -> Vec<String> {
        self.list.iter().map(|c| c.code.clone()).collect()
    }
}

/// The words of one language, with English behind it: what the HUD and the screens read. In the
/// game it is a resource: switching language replaces it, and every screen reads it each frame.
#[derive(Clone, bevy::prelude::Resource)]
pub struct Tr {
    cats: Arc<Catalogs>,
    cur: usize,
    /// For tests: a message the language lacks reads `⟦key⟧` instead of falling back to English.
    strict: bool,
}

impl std::fmt::Debug for Tr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tr({})", self.code())
    }
}

impl Default for Tr {
    /// English.
    fn default() -> Self {
        Tr { cats: Catalogs::shipped(), cur: 0, strict: false }
    }
}

/// An argument of a message: text or a number (numbers choose plural forms).
#[derive(Debug, Clone)]
pub enum Arg {
    /// Text, put in as it is.
    Text(String),
    /// A whole number.
    Num(i64),
}

impl From<&str> for Arg {
    fn from(s: &str) -> Self {
        Arg::Text(s.to_string())
    }
}
impl From<String> for Arg {
    fn from(s: String) -> Self {
        Arg::Text(s)
    }
}
impl From<&String> for Arg {
    fn from(s: &String) -> Self {
        Arg::Text(s.clone())
    }
}
macro_rules! arg_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Self {
                Arg::Num(n as i64)
            }
        }
        impl From<&$t> for Arg {
            fn from(n: &$t) -> Self {
                Arg::Num(*n as i64)
            }
        }
    )*};
}
arg_from_int!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

/// `tr!(tr, "log-downed", who = name)`: a message with named arguments.
#[macro_export]
macro_rules! tr {
    ($tr:expr, $key:expr) => { $tr.t($key) };
    ($tr:expr, $key:expr, $($name:ident = $value:expr),+ $(,)?) => {
        $tr.ta($key, &[$((stringify!($name), $crate::i18n::Arg::from($value))),+])
    };
}

impl Tr {
    /// The language `code` of `cats` (English if it has no such language).
    pub(crate) fn new(cats: Arc<Catalogs>, code: &str) -> Tr {
        let cur = cats.list.iter().position(|c| c.code == code).unwrap_or(0);
        Tr { cats, cur, strict: false }
    }

    /// A shipped language that shows `⟦key⟧` for a message it lacks, instead of English: what
    /// the tests read to prove a language falls back nowhere.
    pub fn strict(code: &str) -> Tr {
        Tr { strict: true, ..Tr::shipped(code) }
    }

    /// A shipped language (English if `code` is not shipped).
    pub fn shipped(code: &str) -> Tr {
        Tr::new(Catalogs::shipped(), code)
    }

    /// The language's code.
    pub(crate) fn code(&self) -> &str {
        self.cats.list.get(self.cur).map_or(FALLBACK, |c| c.code.as_str())
    }

    /// Every language there is, to choose from.
    pub(crate) fn catalogs(&self) -> &Arc<Catalogs> {
        &self.cats
    }

    /// A message without arguments.
    pub(crate) fn t(&self, key: &str) -> String {
        self.lookup(key, None)
    }

    /// A message with arguments.
    pub fn ta(&self, key: &str, args: &[(&str, Arg)]) -> String {
        let mut fa = FluentArgs::new();
        for (k, v) in args {
            match v {
                Arg::Text(s) => fa.set(*k, FluentValue::from(s.clone())),
                Arg::Num(n) => fa.set(*k, FluentValue::from(*n)),
            }
        }
        self.lookup(key, Some(&fa))
    }

    /// The current language's message, else English's, else the key.
    fn lookup(&self, key: &str, args: Option<&FluentArgs>) -> String {
        let list = &self.cats.list;
        let own = list.get(self.cur).and_then(|c| c.format(key, args));
        if self.strict {
            return own.unwrap_or_else(|| format!("⟦{key}⟧"));
        }
        own.or_else(|| list.first().and_then(|c| c.format(key, args))).unwrap_or_else(|| key.to_string())
    }

    /// Whether the current language has `key` itself (no fallback).
    pub(crate) fn has_own(&self, key: &str) -> bool {
        self.cats.list.get(self.cur).is_some_and(|c| c.has(key))
    }

    /// A data name in this language: `names[code]`, else the default name.
    pub(crate) fn name<'a>(&self, default: &'a str, names: &'a BTreeMap<String, String>) -> &'a str {
        names.get(self.code()).map_or(default, |s| s.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_syntax_error_names_the_file_line_and_column() {
        let e = Catalog::parse("en", "x.ftl", "a = fine\nb = { $n -> \n  [one] x\n}\n").unwrap_err();
        assert!(e.0.starts_with("x.ftl:4:1: ") && e.0.contains("default variant"), "{e}");
    }

    #[test]
    fn plurals_follow_each_language() {
        let en = Tr::shipped("en");
        let es = Tr::shipped("es");
        assert_eq!(tr!(en, "n-actions", n = 1), "1 action");
        assert_eq!(tr!(en, "n-actions", n = 2), "2 actions");
        assert_eq!(tr!(es, "n-actions", n = 1), "1 acción");
        assert_eq!(tr!(es, "n-actions", n = 2), "2 acciones");
    }

    #[test]
    fn a_missing_message_falls_back_to_english_then_to_the_key() {
        let cats =
            Arc::new(Catalogs::from_sources(vec![("fr".into(), "fr.ftl".into(), "language-name = Français\n".into())]));
        let fr = Tr::new(cats, "fr");
        assert_eq!(fr.code(), "fr");
        assert_eq!(tr!(fr, "n-actions", n = 2), "2 actions");
        assert_eq!(fr.t("no-such-key"), "no-such-key");
    }
}
