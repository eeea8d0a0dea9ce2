import ActivityWire

/// The bars of the progress libraries programs draw with: tqdm and rich (Python) and indicatif
/// (Rust), whichever a program draws. It is what `activity run` reads when no tool's adapter is
/// chosen for the command, so a training script's tqdm bar becomes an activity with nothing
/// named. Each library's bar is distinctive enough that no other output is taken for one (each
/// adapter never guesses). A library whose bar came reads every line from then on; the others
/// still look at the lines no library took, so a command that runs a tqdm script and then a
/// rich one has both read. Their activities' keys are each library's own (`tqdm …`, `rich …`).
struct LibraryBarsAdapter: ToolAdapter {
    private var libraries: [any ToolAdapter] = [TqdmAdapter(), RichAdapter(), IndicatifAdapter()]
    /// The indices of the libraries whose bars came, in the order they came.
    private var chosen: [Int] = []

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        var consumed = false
        for index in chosen where libraries[index].read(line, &activities) { consumed = true }
        guard !consumed, chosen.count < libraries.count else { return consumed }
        // Every bar the three read shows a percentage or a count out of a total (`45%`, `7/10`,
        // tqdm's `it/s`): other lines, most of any program's output, are not looked at further.
        // Found by `memchr`: under `activity run` every line of a command's output comes here.
        let looksLikeABar = line.bytes.withUnsafeBytes { raw in
            firstOffset(of: UInt8(ascii: "%"), in: raw, from: 0, to: raw.count) != nil
                || firstOffset(of: UInt8(ascii: "/"), in: raw, from: 0, to: raw.count) != nil
        }
        guard looksLikeABar else { return false }
        for index in libraries.indices where !chosen.contains(index) && libraries[index].read(line, &activities) {
            chosen.append(index)
            return true
        }
        return false
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        for index in chosen { libraries[index].inputEnded(&activities) }
    }

    mutating func readUnfinished(_ line: AdapterLine, _ activities: inout AdaptedActivities) {
        // Before a library is known, an unfinished line is left for when it ends.
        for index in chosen { libraries[index].readUnfinished(line, &activities) }
    }

    mutating func readEmptyLine(_ activities: inout AdaptedActivities) -> Bool {
        var consumed = false
        for index in chosen where libraries[index].readEmptyLine(&activities) { consumed = true }
        return consumed
    }

    mutating func readNewline(ending line: AdapterLine, _ activities: inout AdaptedActivities) {
        for index in chosen { libraries[index].readNewline(ending: line, &activities) }
    }

    mutating func readCleared(_ place: ScreenPlace, _ activities: inout AdaptedActivities) {
        for index in chosen { libraries[index].readCleared(place, &activities) }
    }
}
