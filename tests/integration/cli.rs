//! The command line (issue 25, item 8): every command's `--help` comes from clap's definitions and
//! lists that command's options; a misspelt option exits 2 and names the one meant; every option
//! the README and the docs show in a `skirmish ...` command exists; shell completions are printed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish")).args(args).current_dir(root()).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `skirmish <command...> --help`: exits 0 and prints the help on stdout.
fn help(command: &[&str]) -> String {
    let args: Vec<&str> = command.iter().copied().chain(["--help"]).collect();
    let o = cli(&args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Usage: skirmish"), "{args:?}: {text}");
    text
}

/// Each command and what its `--help` must list.
const COMMANDS: &[(&[&str], &[&str])] = &[
    (&[], &["play", "scenarios", "scenario", "check", "replay", "sim", "mods", "completions", "help"]),
    (
        &["play"],
        &[
            "--encounter",
            "--scenario",
            "--ruleset",
            "--ai",
            "--all-ai",
            "--seed",
            "--now",
            "--screenshots",
            "--rounds",
            "--mod",
            "--open",
        ],
    ),
    (&["scenarios"], &["Usage: skirmish scenarios"]),
    (&["scenario"], &["FILE", "--seed", "--log", "--replay-out", "--mod"]),
    (&["check"], &["FILE"]),
    (&["replay"], &["FILE", "--verify", "--log"]),
    (
        &["sim"],
        &[
            "ENCOUNTER",
            "merge",
            "--ruleset",
            "--runs",
            "--seed",
            "--jobs",
            "--out",
            "--max-rounds",
            "--shard",
            "--replay-run",
            "--dice",
            "--mod",
            "--ai",
            "--bench",
            "--compare-ai",
        ],
    ),
    (&["sim", "merge"], &["SHARD_DIR", "--out"]),
    (&["mods"], &["Usage: skirmish mods"]),
    (&["completions"], &["bash", "zsh", "fish"]),
];

#[test]
fn cli_every_command_has_a_help_listing_its_options() {
    for (command, lists) in COMMANDS {
        let text = help(command);
        for l in *lists {
            assert!(text.contains(l), "`skirmish {} --help` does not list {l}:\n{text}", command.join(" "));
        }
    }
    // `help` (the command) says what `--help` says, for the program and for `sim`.
    for command in [&[][..], &["sim"]] {
        let o = cli(&[&["help"][..], command].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o), help(command), "skirmish help {}", command.join(" "));
    }
    let o = cli(&["sim", "help"]);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), help(&["sim"])));
}

#[test]
fn cli_a_misspelt_option_or_command_exits_2_and_names_the_one_meant() {
    let o = cli(&["sim", "x.ron", "--rnus", "5"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("'--rnus'") && stderr(&o).contains("'--runs'"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let o = cli(&["replay", "x.ron", "--verfiy"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("'--verify'"), "{}", stderr(&o));
    let o = cli(&["scenaro", "x.ron"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("'scenario'"), "{}", stderr(&o));
    // The checks clap cannot make say so the same way: exit 2, with the command's usage.
    let o = cli(&["sim", "a.ron", "b.ron"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("one encounter at a time") && stderr(&o).contains("Usage: skirmish sim"));
}

#[test]
fn cli_prints_shell_completions() {
    for shell in ["bash", "zsh", "fish"] {
        let o = cli(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        for word in ["skirmish", "scenario", "merge", "replay-run", "verify"] {
            assert!(script.contains(word), "{shell} completions lack {word}");
        }
    }
    assert_eq!(cli(&["completions", "cmd.exe"]).status.code(), Some(2));
}

/// The commands shown in `text` (a markdown page): code-block lines and inline code that start
/// with `skirmish ` or `cargo run ... -- `, each as (its subcommand, the `--options` it uses).
fn shown_commands(text: &str) -> Vec<(String, Vec<String>)> {
    let mut spans = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        } else if in_block {
            spans.push(line);
        } else {
            spans.extend(line.split('`').skip(1).step_by(2));
        }
    }
    let mut out = Vec::new();
    for s in spans {
        let s = s.split(" #").next().unwrap_or_default().trim();
        let rest = if s.starts_with("cargo run") {
            s.split_once(" -- ").map(|(_, r)| r)
        } else {
            s.split_once("skirmish ").filter(|(before, _)| !before.contains(' ')).map(|(_, r)| r)
        };
        let Some(rest) = rest else { continue };
        let mut words = rest.split_whitespace();
        let Some(command) = words.next() else { continue };
        if !["play", "scenarios", "scenario", "check", "replay", "sim", "mods"].contains(&command) {
            continue;
        }
        let words: Vec<&str> = words.collect();
        let command = if command == "sim" && words.first() == Some(&"merge") { "sim merge" } else { command };
        let options = words
            .iter()
            .map(|w| w.trim_start_matches('[').trim_end_matches([']', ',', '.', ')']))
            .filter(|w| w.starts_with("--") && w.len() > 2)
            .map(String::from)
            .collect();
        out.push((command.to_string(), options));
    }
    out
}

#[test]
fn cli_every_option_the_readme_and_docs_show_exists() {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let mut checked = 0;
    let mut missing = Vec::new();
    let helps: std::collections::BTreeMap<&str, String> = ["play", "scenario", "check", "replay", "sim", "sim merge"]
        .into_iter()
        .map(|c| (c, help(&c.split(' ').collect::<Vec<_>>())))
        .collect();
    let has = |command: &str, option: &str| {
        helps.get(command).is_some_and(|h| h.contains(&format!("{option} ")) || h.contains(&format!("{option}\n")))
    };
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let name = page.strip_prefix(root()).unwrap_or(Path::new("?")).display().to_string();
        for (command, options) in shown_commands(&text) {
            for o in options {
                checked += 1;
                if !has(&command, &o) {
                    missing.push(format!("{name}: `skirmish {command} {o}`"));
                }
            }
        }
        // The README's table of `sim`'s options.
        for row in text.lines().filter(|l| l.starts_with("| `--")) {
            let o = row[3..].split(['`', ' ']).next().unwrap_or_default();
            if name == "README.md" {
                checked += 1;
                if !has("sim", o) {
                    missing.push(format!("{name}: the sim table's `{o}`"));
                }
            }
        }
    }
    assert!(checked >= 40, "only {checked} options found: is the reader broken?");
    assert!(missing.is_empty(), "options shown that the command line does not have:\n{}", missing.join("\n"));
}
