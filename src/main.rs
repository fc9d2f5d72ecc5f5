//! The `skirmish` binary: the command line and the game ([`skirmish::run`]) with the built-in
//! mods.

/// mimalloc: faster than the system allocator on the simulator's many small buffers (see
/// `docs/performance.md`).
#[global_allocator]
static GLOBAL: skirmish::MiMalloc = skirmish::MiMalloc;

fn main() -> std::process::ExitCode {
    skirmish::run(skirmish::modding::ModRegistry::builtin())
}
