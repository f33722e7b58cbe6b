//! The `site` command: parses arguments, runs one subcommand (one file each under `cmd/`),
//! prints problems, exits non-zero.

mod cmd;

fn main() -> std::process::ExitCode {
    cmd::main()
}

/// The allocator, chosen by measurement (issue 12; `bash bench/site.sh`): at 10,000 pages
/// jemalloc builds in 1.09 s against glibc's 1.20 s. Its default keeps freed pages for 10 s,
/// which put the peak at 151 MB; returning them after 1 s gives 130 MB at the same speed.
/// mimalloc was as fast but peaked at 177-193 MB. Behind the default feature `jemalloc`:
/// `devserver` links the generator's library without it, because compiling jemalloc's C is the
/// longest step (136 s) of a newcomer's first `cargo run -p devserver`.
#[cfg(feature = "jemalloc")]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[cfg(feature = "jemalloc")]
#[allow(non_upper_case_globals)]
#[unsafe(export_name = "_rjem_malloc_conf")]
pub static _rjem_malloc_conf: &[u8] = b"dirty_decay_ms:1000\0";
