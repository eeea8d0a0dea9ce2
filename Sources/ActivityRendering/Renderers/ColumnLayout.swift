/// Where each part of the live region's activity lines goes in one frame: shared by every row,
/// so bars, percentages, counts, rates and times start at the same column and the eye can
/// compare rows (as docker compose, pip and cargo line them up).
///
/// Titles are padded to a shared title column, as wide as the longest title needs, or cut with
/// an ellipsis when the terminal is too narrow for it. When the parts do not all fit, whole
/// columns give way, in the order a single line always used: half the bar, the rate, the ETA,
/// the counts, the elapsed time, the rest of the bar, the percentage. The title column keeps up
/// to 40% of the line before any of them goes, and grows past that only into room no message
/// needs; a message takes the room left at the end.
///
/// ```
/// ⠹ Download toolchain  ██████░░░░   30%  3/10  ETA 4s  1.2s
/// ⠹ Compile             ██░░░░░░░░   10%  1/10          0.4s
/// ```
struct ColumnLayout {
    /// The columns that decide the bytes of a line's middle piece (title, bar, percentage,
    /// counts): a cached middle piece is reused only under the same ones.
    struct MiddleKey: Equatable {
        var titleEnd = 0
        var bar = 0
        var percent = 0
        var counts = 0
    }

    /// The column after the title column: indentation, spinner and title end here.
    private(set) var titleEnd = 0
    /// The width of each part's column; 0 when no row shows it.
    private(set) var bar = 0
    private(set) var percent = 0
    private(set) var counts = 0
    private(set) var rate = 0
    private(set) var eta = 0
    private(set) var elapsed = 0
    /// How wide a line is with every column filled, before the message.
    private(set) var lineWidth = 0
    /// The room for a message after the last column.
    private(set) var messageRoom = 0

    var middleKey: MiddleKey { MiddleKey(titleEnd: titleEnd, bar: bar, percent: percent, counts: counts) }

    /// The columns for `rows` in lines of at most `width` columns.
    init(fitting rows: [LiveRow], width: Int) {
        var wanted = 0
        var bar = 0
        var percent = 0
        var counts = 0
        var rate = 0
        var eta = 0
        var elapsed = 0
        var message = 0
        for row in rows {
            message = max(message, row.cache.text.messageWidth)
            wanted = max(wanted, row.titleEnd)
            if row.fraction != nil { bar = 20 }
            if let part = row.percent { percent = max(percent, part.width) }
            if let part = row.counts { counts = max(counts, part.width) }
            if let part = row.rate { rate = max(rate, part.width) }
            if let part = row.eta { eta = max(eta, part.width) }
            if let part = row.elapsed { elapsed = max(elapsed, part.width) }
        }
        let floor = min(wanted, max(12, width * 2 / 5))
        func cost(_ column: Int) -> Int { column > 0 ? 2 + column : 0 }
        func others() -> Int {
            cost(bar) + cost(percent) + cost(counts) + cost(rate) + cost(eta) + cost(elapsed)
        }
        func overflow() -> Int { floor + others() - width }
        func narrowBar(to minimum: Int) {
            if overflow() > 0 && bar > minimum { bar = max(minimum, bar - overflow()) }
        }
        // Columns go one at a time, each only while the line is still too wide.
        narrowBar(to: 10)
        if overflow() > 0 { rate = 0 }
        if overflow() > 0 { eta = 0 }
        if overflow() > 0 { counts = 0 }
        if overflow() > 0 { elapsed = 0 }
        narrowBar(to: 6)
        if overflow() > 0 { bar = 0 }
        if overflow() > 0 { percent = 0 }
        // Beyond its floor, the title column only takes room no message needs.
        titleEnd = min(wanted, max(floor, width - others() - (message > 0 ? 2 + message : 0)))
        self.bar = bar
        self.percent = percent
        self.counts = counts
        self.rate = rate
        self.eta = eta
        self.elapsed = elapsed
        lineWidth = titleEnd + others()
        messageRoom = width - lineWidth - 2
    }
}
