/// How a `tokenize` run that ends before its input does reports it: what was written is
/// kept (an output file keeps its old contents and the rows so far stay in its partial
/// file), one line says where, and the exit status says why.
enum EarlyEnd {
    /// A ``RunStop`` (a vault that cannot write, refused credentials): exit status 1.
    static func stopped(by stop: any RunStop, output: OutputFile, lastWrittenLine: Int) -> Int32 {
        Console.error("zeropii: \(stop)")
        keepPartial(output, lastWrittenLine: lastWrittenLine)
        return 1
    }

    /// For a run that ended before its input did (a stop, `--strict`, a server that went
    /// away): renames what it wrote to `FILE.partial` and says so; nothing for standard
    /// output.
    static func keepPartial(_ output: OutputFile, lastWrittenLine: Int) {
        guard let partial = output.keepPartial() else { return }
        let rows = lastWrittenLine > 0 ? "the output up to line \(lastWrittenLine) is in '\(partial)'" : "'\(partial)' holds no row"
        Console.error("zeropii: \(output.name) keeps its old contents, since the run stopped early; \(rows)")
    }

    /// SIGINT or SIGTERM: exit status 128 + the signal, as a shell reports a process that
    /// the signal ended. Running the same command again finishes the work, since the vault
    /// gives the same tokens.
    static func interrupted(by signal: Int32, output: OutputFile, lastWrittenLine: Int) -> Int32 {
        let partial = output.keepPartial()
        let name = Interruption.name(of: signal)
        let done = lastWrittenLine > 0 ? "the output up to line \(lastWrittenLine)" : "no output"
        if let partial {
            Console.error(
                "zeropii: interrupted by \(name): \(output.name) keeps its old contents and '\(partial)' holds \(done); "
                    + "run the same command again to finish (the vault gives the same tokens)")
        } else {
            Console.error("zeropii: interrupted by \(name): \(output.name) holds \(done); run the same command again for the rest")
        }
        return 128 + signal
    }
}
