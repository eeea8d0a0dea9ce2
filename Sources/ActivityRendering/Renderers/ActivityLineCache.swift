/// One activity's line parts kept from frame to frame, each with the inputs it was made from;
/// found by the activity's ``ActivityState/sequence``, so an id begun again starts afresh.
final class ActivityLineCache {
    let handle: ActivityHandle
    var text: DisplayText
    var eta: (part: LiveRow.Part, time: Double)?
    /// The usual duration from the history, looked up at the first frame.
    var usual: Double?
    var usualKnown = false
    var rateSuffix: String?
    /// The rate's text as last made, by its ``Formatting/rateKey(_:unit:)``.
    var rate: (key: Formatting.NumberKey, part: LiveRow.Part)?
    var elapsedKey: Int64 = 0
    var elapsed: LiveRow.Part?
    var hasPercent = false
    var fraction: Double?
    var percent: String?
    var hasCounts = false
    var countsCompleted = 0.0
    var countsTotal: Double?
    var counts: String?
    var countsWidth = 0
    var countsTailTotal: Double?
    /// What the title, bar, percentage and counts showed, and where (the percentage follows
    /// from the fraction): their bytes, their width, and the blank columns owed after them.
    var hasMiddle = false
    var middleLayout = ColumnLayout.MiddleKey()
    var middleTitleRoom = 0
    var middleText: DisplayText?
    var middleFraction: Double?
    var middleHasPercent = false
    var middleCounts = ""
    var middleBytes: [UInt8] = []
    var middleWidth = 0
    var middlePad = 0
    /// The title as cut to the title column's room, for the text it was cut from.
    var cutTitleSource: DisplayText?
    var cutTitleRoom = 0
    var cutTitle = ""
    var cutTitleWidth = 0
    var countsTail: String?
    var barFraction = -1.0
    var barWidth = -1
    var bar: (filled: String, empty: String, emptyWidth: Int) = ("", "", 0)

    init(handle: ActivityHandle, text: DisplayText) {
        self.handle = handle
        self.text = text
    }
}
