/// How a `tokenize` run that ends before its input does reports it: what was written is
/// kept (an output file keeps its old contents, or is not made, and the rows so far stay in its partial
/// file, and so does a `--rejects` file), one line says why and where, and the exit
/// status says why.
enum EarlyEnd {
    /// A ``RunStop`` (a vault that cannot write, refused credentials): exit status 1.
    static func stopped(by stop: any RunStop, output: OutputFile, rejects: RejectedRows? = nil, lastWrittenLine: Int) -> Int32 {
        let kept = keptFiles(output, rejects: rejects, lastWrittenLine: lastWrittenLine)
        Console.error("zeropii: \(stop)" + (kept.map { "; \($0)" } ?? ""))
        return 1
    }

    /// For a run that ended before its input did (`--strict`, a server that went away):
    /// renames what it wrote to `FILE.partial` and says in one line why it stopped and
    /// where its files are.
    static func keepPartial(_ output: OutputFile, rejects: RejectedRows? = nil, lastWrittenLine: Int, reason: String) {
        let kept = keptFiles(output, rejects: rejects, lastWrittenLine: lastWrittenLine)
        Console.error("zeropii: \(reason)" + (kept.map { "; \($0)" } ?? ""))
    }

    /// SIGINT or SIGTERM: exit status 128 + the signal, as a shell reports a process that
    /// the signal ended. Running the same command again finishes the work, since the vault
    /// gives the same tokens.
    static func interrupted(by signal: Int32, output: OutputFile, rejects: RejectedRows? = nil, lastWrittenLine: Int) -> Int32 {
        let name = Interruption.name(of: signal)
        let again = "run the same command again to finish (the vault gives the same tokens)"
        if let kept = keptFiles(output, rejects: rejects, lastWrittenLine: lastWrittenLine) {
            Console.error("zeropii: interrupted by \(name): \(kept); \(again)")
        } else {
            let done = lastWrittenLine > 0 ? "the output up to line \(lastWrittenLine)" : "no output"
            Console.error("zeropii: interrupted by \(name): \(output.name) holds \(done); \(again)")
        }
        return 128 + signal
    }

    /// Renames the files of a run that stopped early to their partial names and says
    /// where they are, or nil when there is no file to keep (standard output).
    private static func keptFiles(_ output: OutputFile, rejects: RejectedRows?, lastWrittenLine: Int) -> String? {
        var parts: [String] = []
        if let partial = output.keepPartial() {
            let rows = lastWrittenLine > 0 ? "the output up to line \(lastWrittenLine) is in '\(partial)'" : "'\(partial)' holds no row"
            parts.append("\(output.name) \(output.targetExisted ? "keeps its old contents" : "was not made") and \(rows)")
        }
        if let rejects, let kept = keptRejects(rejects) { parts.append(kept) }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// Renames a `--rejects` file of a run that stopped early to its partial name and says
    /// where its rows are, or nil when there is no file to keep (a stream).
    static func keptRejects(_ rejects: RejectedRows) -> String? {
        try? rejects.endLine()
        guard let partial = rejects.output.keepPartial() else { return nil }
        let verb = rejects.count == 1 ? "is" : "are"
        return "the \(RunSummary.count(rejects.count, "row")) left out so far \(verb) in '\(partial)'"
    }
}
