/// Where each activity goes in a timeline drawing: one row per bar, children in the rows below
/// their parent, siblings that do not overlap in time sharing a row.
///
/// A parent's subtree is a block of rows: its own row, then its children's blocks packed first
/// fit, in start order, into the lowest rows that are free for their whole time span. A build
/// of 10,000 steps run 8 at a time under one parent takes 9 rows, not 10,001.
package struct TimelineLayout: Sendable {
    /// The row of each activity, indexed like ``Timeline/activities``.
    package let rows: [Int]
    /// How many rows the drawing has.
    package let rowCount: Int

    /// How many candidate rows are tried before a block goes below all the others: it bounds
    /// the work for a pathological recording (thousands of siblings all running at once).
    static let searchLimit = 256

    package init(_ timeline: Timeline) { self.init(TimelineSkeleton(timeline)) }

    package init(_ skeleton: TimelineSkeleton) {
        var height = [Int](repeating: 1, count: skeleton.count)
        var offset = [Int](repeating: 0, count: skeleton.count)
        var spanEnd = skeleton.ends
        // Children begin after their parent, so the reverse begin order sees every child first.
        for index in (0..<skeleton.count).reversed() {
            let children = skeleton.children(index)
            guard !children.isEmpty else { continue }
            height[index] = 1 + Self.pack(children, skeleton, height, spanEnd, &offset)
            for child in children { spanEnd[index] = max(spanEnd[index], spanEnd[child]) }
        }
        let total = Self.pack(skeleton.roots[...], skeleton, height, spanEnd, &offset)
        var rows = [Int](repeating: 0, count: skeleton.count)
        for index in 0..<skeleton.count {
            if let parent = skeleton.parent(index) {
                rows[index] = rows[parent] + 1 + offset[index]
            } else {
                rows[index] = offset[index]
            }
        }
        self.rows = rows
        rowCount = total
    }

    /// Packs sibling blocks into rows; returns how many rows they use.
    private static func pack(
        _ siblings: ArraySlice<Int>, _ skeleton: TimelineSkeleton, _ height: [Int], _ spanEnd: [Double],
        _ offset: inout [Int]
    ) -> Int {
        let starts = skeleton.starts
        let ordered = siblings.sorted { (starts[$0], $0) < (starts[$1], $1) }
        var busyUntil: [Double] = []
        for index in ordered {
            let start = starts[index]
            let needed = height[index]
            var row = 0
            var placed = false
            while row < min(busyUntil.count, searchLimit) {
                let upper = min(row + needed, busyUntil.count)
                if let blocked = (row..<upper).last(where: { busyUntil[$0] > start }) {
                    row = blocked + 1
                } else {
                    placed = true
                    break
                }
            }
            if !placed { row = max(row, busyUntil.count >= searchLimit ? busyUntil.count : row) }
            while busyUntil.count < row + needed { busyUntil.append(-.infinity) }
            for used in row..<(row + needed) { busyUntil[used] = spanEnd[index] }
            offset[index] = row
        }
        return busyUntil.count
    }
}
