//! Entry point: the command line is `cli`'s to parse and carry out (a protocol session or a
//! subcommand); the process ends with the exit status it gives back.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(ironwood::cli::run_command_line(&args));
}
