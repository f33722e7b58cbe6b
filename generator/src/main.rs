//! The `site` command: parses arguments, runs one subcommand (one file each under `cmd/`),
//! prints problems, exits non-zero.

mod cmd;

fn main() -> std::process::ExitCode {
    cmd::main()
}
