/// One frame of pv's display, the default one (`8.00MiB 0:00:01 [7.34MiB/s] [====>   ] 41% ETA 0:00:01`,
/// and without a size `[ <=>   ]` instead of the bar) or one of `-F`'s formats made of the same
/// fields (`%b %t %r %p %e`, `%t %b %a`, `%N %b %p`). Every field must be one of pv's: the byte
/// count, the elapsed time, a rate in brackets, the bar (with its percentage when the size is
/// known), `ETA`/`FIN` and a time, and a `NAME: ` (`-N`) first. Anything else is not a frame.
struct PvFrame: Equatable {
    /// `-N NAME`, when given.
    var name: String?
    /// pv's byte count, as shown (three significant digits: `19.1MiB` is 20,027,802 bytes).
    var bytes: Double?
    var bytesText: String?
    var percent: Double?
    var rate: String?
    var eta: String?

    init?(_ line: String) {
        var text = Substring(line).trimmingSpaces
        // `%N` pads the name and ends it with `: `; no other field holds `: `.
        if let colon = text.lastRange(of: ": ") {
            let name = text[..<colon.lowerBound].trimmingSpaces
            guard !name.isEmpty, name.count <= 256 else { return nil }
            self.name = String(name)
            text = text[colon.upperBound...].trimmingSpaces
        }
        guard let tokens = Self.tokens(text), !tokens.isEmpty, tokens.count <= 12 else { return nil }
        var index = 0
        var fields = 0
        var sawTime = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if token.hasPrefix("[") {
                let inner = token.dropFirst().dropLast()
                if inner.hasSuffix("/s"), Self.size(inner.dropLast(2).trimmingSpaces) != nil {
                    guard self.rate == nil else { return nil }
                    self.rate = String(inner.trimmingSpaces)
                } else if !inner.isEmpty, inner.allSatisfy({ "=> <-".contains($0) }),
                    inner.contains(where: { $0 != " " })
                {
                    // The bar; its percentage, when the size is known, follows it.
                    if index < tokens.count, let percent = Self.percent(tokens[index]) {
                        self.percent = percent
                        index += 1
                    }
                } else {
                    return nil
                }
            } else if token == "ETA" || token == "FIN" {
                guard index < tokens.count, Self.isTime(tokens[index]) else { return nil }
                eta = token + " " + tokens[index]
                index += 1
            } else if Self.isTime(token) {
                guard !sawTime else { return nil }
                sawTime = true
            } else if let bytes = Self.size(token) {
                guard self.bytes == nil else { return nil }
                self.bytes = bytes
                bytesText = String(token)
            } else {
                return nil
            }
            fields += 1
        }
        // A lone time or rate is not enough to tell pv's frame from other text.
        guard bytes != nil || percent != nil, fields >= 2 || bytes != nil else { return nil }
    }

    /// The words of the frame, a bracketed field (`[ <=>   ]`, `[7.34MiB/s]`) as one.
    private static func tokens(_ text: Substring) -> [Substring]? {
        var tokens: [Substring] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == " " {
                index = text.index(after: index)
                continue
            }
            let start = index
            if text[index] == "[" {
                guard let close = text[index...].firstIndex(of: "]") else { return nil }
                index = text.index(after: close)
            } else {
                index = text[index...].firstIndex(of: " ") ?? text.endIndex
            }
            tokens.append(text[start..<index])
            guard tokens.count <= 12 else { return nil }
        }
        return tokens
    }

    /// `41%`, `100%`.
    private static func percent(_ text: Substring) -> Double? {
        guard text.hasSuffix("%"), text.count <= 4, let value = NumberText.integer(text.dropLast()), value <= 100
        else { return nil }
        return value
    }

    /// pv's sizes: `512B`, `4.00MiB`, `12.0GiB`, powers of 1024 with the unit written out.
    private static func size(_ text: Substring) -> Double? {
        let numberEnd = text.firstIndex { !NumberText.isDigit($0) && $0 != "." && $0 != "," } ?? text.endIndex
        guard let number = NumberText.decimal(text[..<numberEnd]),
            let power = units.firstIndex(of: String(text[numberEnd...]))
        else { return nil }
        var scale = 1.0
        for _ in 0..<power { scale *= 1024 }
        return (number * scale).rounded()
    }

    private static let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]

    /// `0:00:01`, and with days `1:02:03:04`.
    private static func isTime(_ text: Substring) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return (2...4).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(NumberText.isDigit) }
    }
}
