/// The bars of the progress libraries programs draw with: tqdm and rich (Python) and indicatif
/// (Rust), whichever a program draws. It is what `activity run` reads when no tool's adapter is
/// chosen for the command, so a training script's tqdm bar becomes an activity with nothing
/// named. Each library's bar is distinctive enough that no other output is taken for one (each
/// adapter never guesses); the first library whose bar comes reads the rest of the output, and
/// the others no longer look, so their activities' keys never meet.
struct LibraryBarsAdapter: ToolAdapter {
    private enum Library: CaseIterable { case tqdm, rich, indicatif }

    private var tqdm = TqdmAdapter()
    private var rich = RichAdapter()
    private var indicatif = IndicatifAdapter()
    /// The library whose bar came first.
    private var chosen: Library?

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        if let chosen { return read(line, by: chosen, &activities) }
        // Every bar the three read shows a percentage or a count out of a total (`45%`, `7/10`,
        // tqdm's `it/s`): other lines, most of any program's output, are not looked at further.
        guard line.bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "/") }) else {
            return false
        }
        for library in Library.allCases where read(line, by: library, &activities) {
            chosen = library
            return true
        }
        return false
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        switch chosen {
        case .tqdm: tqdm.inputEnded(&activities)
        case .rich: rich.inputEnded(&activities)
        case .indicatif: indicatif.inputEnded(&activities)
        case nil: break
        }
    }

    mutating func readUnfinished(_ line: AdapterLine, _ activities: inout AdaptedActivities) {
        // Before a library is known, an unfinished line is left for when it ends.
        switch chosen {
        case .tqdm: tqdm.readUnfinished(line, &activities)
        case .rich: rich.readUnfinished(line, &activities)
        case .indicatif: indicatif.readUnfinished(line, &activities)
        case nil: break
        }
    }

    mutating func readEmptyLine(_ activities: inout AdaptedActivities) -> Bool {
        switch chosen {
        case .tqdm: tqdm.readEmptyLine(&activities)
        case .rich: rich.readEmptyLine(&activities)
        case .indicatif: indicatif.readEmptyLine(&activities)
        case nil: false
        }
    }

    mutating func readNewline(ending line: AdapterLine, _ activities: inout AdaptedActivities) {
        switch chosen {
        case .tqdm: tqdm.readNewline(ending: line, &activities)
        case .rich: rich.readNewline(ending: line, &activities)
        case .indicatif: indicatif.readNewline(ending: line, &activities)
        case nil: break
        }
    }

    private mutating func read(_ line: AdapterLine, by library: Library, _ activities: inout AdaptedActivities) -> Bool
    {
        switch library {
        case .tqdm: tqdm.read(line, &activities)
        case .rich: rich.read(line, &activities)
        case .indicatif: indicatif.read(line, &activities)
        }
    }
}
