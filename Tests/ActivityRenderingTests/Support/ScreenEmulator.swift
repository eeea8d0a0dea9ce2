import ActivityRendering
import ActivityTerminal
import ActivityWire

/// A small VT100 subset, enough to replay the terminal renderer's output into a grid of cells
/// and check what a person would see: text, `\r`, `\n`, `CSI n A`, `CSI K`, `CSI J`, SGR
/// (ignored), `CSI ? 25 h/l`, `CSI ? 7 h/l` (autowrap) and `CSI ? 2026 h/l`. Anything else is recorded as unexpected.
struct ScreenEmulator {
    var columns: Int
    var rows: Int
    /// The visible rows; each cell holds a character, or "" for the right half of a wide one.
    var grid: [[String]]
    /// Rows scrolled off the top.
    var scrollback: [String] = []
    var row = 0
    var column = 0
    var cursorVisible = true
    var synchronized = false
    var autowrap = true
    /// Set when text ran past the right edge (a line wrapped).
    var wrapped = false
    var unexpected: [String] = []

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    mutating func feed(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\u{1B}":
                guard scalars.first == "[" else {
                    unexpected.append("ESC \(scalars.first.map { String($0) } ?? "")")
                    continue
                }
                scalars.removeFirst()
                var parameters = ""
                while let next = scalars.first, !(0x40...0x7E).contains(next.value) {
                    parameters.unicodeScalars.append(next)
                    scalars.removeFirst()
                }
                guard let final = scalars.popFirst() else { return }
                control(parameters, final)
            case "\r": column = 0
            case "\n":
                column = 0
                lineFeed()
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    unexpected.append("control \(scalar.value)")
                    continue
                }
                put(scalar)
            }
        }
    }

    private mutating func lineFeed() {
        if row == rows - 1 {
            scrollback.append(line(grid.removeFirst()))
            grid.append(Array(repeating: " ", count: columns))
        } else {
            row += 1
        }
    }

    private mutating func put(_ scalar: Unicode.Scalar) {
        let width = DisplayWidth.of(String(scalar))
        guard width > 0 else {
            if column > 0 { grid[row][column - 1] += String(scalar) }
            return
        }
        if column + width > columns {
            if autowrap {
                wrapped = true
                column = 0
                lineFeed()
            } else {
                // The last cell is written over, as a VT100 does with autowrap off.
                column = max(0, columns - width)
            }
        }
        grid[row][column] = String(scalar)
        if width == 2, column + 1 < columns { grid[row][column + 1] = "" }
        column += width
    }

    private mutating func control(_ parameters: String, _ final: Unicode.Scalar) {
        let number = Int(parameters) ?? 1
        switch (parameters, final) {
        case ("?25", "l"): cursorVisible = false
        case ("?25", "h"): cursorVisible = true
        case ("?7", "l"): autowrap = false
        case ("?7", "h"): autowrap = true
        case ("?2026", "h"):
            if synchronized { unexpected.append("nested synchronized update") }
            synchronized = true
        case ("?2026", "l"): synchronized = false
        case (_, "A"): row = max(0, row - number)
        case (_, "K"):
            for c in min(column, columns)..<columns { grid[row][c] = " " }
        case (_, "J"):
            for c in min(column, columns)..<columns { grid[row][c] = " " }
            for r in (row + 1)..<rows { grid[r] = Array(repeating: " ", count: columns) }
        case (_, "m"): break
        default: unexpected.append("CSI \(parameters)\(final)")
        }
    }

    /// Changes the size as a reflowing terminal (tmux, VTE) does: each row's text is re-cut at
    /// the new width; the cursor follows its character.
    mutating func resize(columns newColumns: Int, rows newRows: Int) {
        var logical: [[String]] = []
        var cursorLine = 0
        var cursorOffset = 0
        for (index, cells) in grid.enumerated() {
            var trimmed = cells
            while let last = trimmed.last, last == " ", trimmed.count > (index == row ? column : 0) {
                trimmed.removeLast()
            }
            if index == row {
                cursorLine = logical.count
                cursorOffset = column
            }
            logical.append(trimmed)
        }
        // Drop blank rows below the cursor.
        while logical.count > cursorLine + 1, logical.last!.allSatisfy({ $0 == " " }) { logical.removeLast() }
        var newGrid: [[String]] = []
        var newRow = 0
        var newColumn = 0
        for (index, cells) in logical.enumerated() {
            var chunk: [String] = []
            func flush() {
                newGrid.append(chunk + Array(repeating: " ", count: max(0, newColumns - chunk.count)))
                chunk = []
            }
            for (offset, cell) in cells.enumerated() {
                if chunk.count == newColumns {
                    flush()
                }
                if index == cursorLine && offset == cursorOffset {
                    newRow = newGrid.count
                    newColumn = chunk.count
                }
                chunk.append(cell)
            }
            if index == cursorLine && cursorOffset >= cells.count {
                if chunk.count == newColumns && cursorOffset > 0 { flush() }
                newRow = newGrid.count
                newColumn = min(chunk.count, newColumns - 1)
            }
            flush()
        }
        while newGrid.count > newRows {
            scrollback.append(line(newGrid.removeFirst()))
            newRow -= 1
        }
        while newGrid.count < newRows { newGrid.append(Array(repeating: " ", count: newColumns)) }
        grid = newGrid
        columns = newColumns
        rows = newRows
        row = max(0, newRow)
        column = newColumn
    }

    func line(_ cells: [String]) -> String {
        var text = cells.joined()
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The visible screen, one row a line, framed so trailing spaces and the edge show.
    var picture: String {
        let border = "+" + String(repeating: "-", count: columns) + "+"
        var out = border + "\n"
        for cells in grid {
            let text = cells.joined()
            out += "|" + text + "|\n"
        }
        return out + border + "\n"
    }
}
