fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("bench") {
        let depth = args
            .get(1)
            .and_then(|d| d.parse().ok())
            .unwrap_or(ironwood::bench::DEFAULT_DEPTH);
        let r = ironwood::bench::run(depth, 16, true);
        println!(
            "nodes {} time_ms {} nps {}",
            r.nodes,
            r.time_ms,
            r.nodes as u128 * 1000 / r.time_ms.max(1)
        );
        return;
    }
    if args.first().map(String::as_str) == Some("perft") {
        if args.get(1).map(String::as_str) == Some("--epd") {
            let max = args
                .iter()
                .position(|a| a == "--max-depth")
                .and_then(|i| args.get(i + 1))
                .and_then(|d| d.parse().ok());
            let ok = ironwood::perft_command::run_suite(&args[2], max).unwrap();
            std::process::exit(if ok { 0 } else { 1 });
        }
        let depth = args[1].parse().unwrap();
        let fen = args[2..].join(" ");
        ironwood::perft_command::run_divide(depth, (!fen.is_empty()).then_some(fen.as_str()))
            .unwrap();
    }
}
