import ActivityWire

/// The bars of the progress libraries programs draw with: tqdm and rich (Python) and indicatif
/// (Rust), whichever a program draws. It is what `activity run` reads when no tool's adapter is
/// chosen for the command, so a training script's tqdm bar becomes an activity with nothing
/// named. Each library's bar is distinctive enough that no other output is taken for one (each
/// adapter never guesses); the first library whose bar comes reads the rest of the output, and
/// the others no longer look, so their activities' keys never meet.
struct LibraryBarsAdapter: ToolAdapter {
    private var libraries: [any ToolAdapter] = [TqdmAdapter(), RichAdapter(), IndicatifAdapter()]
    /// The index of the library whose bar came first.
    private var chosen: Int?

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        if let chosen { return libraries[chosen].read(line, &activities) }
        // Every bar the three read shows a percentage or a count out of a total (`45%`, `7/10`,
        // tqdm's `it/s`): other lines, most of any program's output, are not looked at further.
        // Found by `memchr`: under `activity run` every line of a command's output comes here.
        let looksLikeABar = line.bytes.withUnsafeBytes { raw in
            firstOffset(of: UInt8(ascii: "%"), in: raw, from: 0, to: raw.count) != nil
                || firstOffset(of: UInt8(ascii: "/"), in: raw, from: 0, to: raw.count) != nil
        }
        guard looksLikeABar else { return false }
        for index in libraries.indices where libraries[index].read(line, &activities) {
            chosen = index
            return true
        }
        return false
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        guard let chosen else { return }
        libraries[chosen].inputEnded(&activities)
    }

    mutating func readUnfinished(_ line: AdapterLine, _ activities: inout AdaptedActivities) {
        // Before a library is known, an unfinished line is left for when it ends.
        guard let chosen else { return }
        libraries[chosen].readUnfinished(line, &activities)
    }

    mutating func readEmptyLine(_ activities: inout AdaptedActivities) -> Bool {
        guard let chosen else { return false }
        return libraries[chosen].readEmptyLine(&activities)
    }

    mutating func readNewline(ending line: AdapterLine, _ activities: inout AdaptedActivities) {
        guard let chosen else { return }
        libraries[chosen].readNewline(ending: line, &activities)
    }

    mutating func readCleared(_ place: ScreenPlace, _ activities: inout AdaptedActivities) {
        guard let chosen else { return }
        libraries[chosen].readCleared(place, &activities)
    }
}
