import Synchronization

/// One cell of a ``CommandScreen``: a grapheme cluster, the columns it takes, its style.
///
/// A plain value with no reference inside, so that writing, copying and blanking cells costs
/// what copying their bytes does: a cluster of one character (nearly all of them) is stored as
/// that character; a longer one (a letter and its accent, an emoji sequence) as a number in
/// ``ClusterTable``.
package struct ScreenCell: Hashable, Sendable {
    /// The character, or the first one of a longer cluster.
    var scalar: Unicode.Scalar
    /// The number of a longer cluster in ``ClusterTable``; 0 for one of a single character.
    var cluster: UInt32
    /// 1, 2 for a wide character, 0 for the column a wide character's right half covers.
    package var width: UInt8
    package var style: CellStyle

    package init(_ character: Character, width: UInt8 = 1, style: CellStyle = CellStyle()) {
        let scalars = character.unicodeScalars
        scalar = scalars.first ?? " "
        cluster = scalars.count == 1 ? 0 : ClusterTable.number(of: character)
        self.width = width
        self.style = style
    }

    /// A cell of one character.
    @inline(__always)
    init(scalar: Unicode.Scalar, width: UInt8, style: CellStyle) {
        self.scalar = scalar
        cluster = 0
        self.width = width
        self.style = style
    }

    /// What the cell shows; a space when blank, and for the right half of a wide character.
    package var character: Character {
        get { cluster == 0 ? Character(scalar) : ClusterTable.character(cluster) }
        set {
            let scalars = newValue.unicodeScalars
            scalar = scalars.first ?? " "
            cluster = scalars.count == 1 ? 0 : ClusterTable.number(of: newValue)
        }
    }

    /// A blank cell, in the style an erase leaves.
    @inline(__always)
    package static func blank(_ style: CellStyle = CellStyle()) -> ScreenCell {
        ScreenCell(scalar: " ", width: 1, style: style)
    }

    /// Whether the cell shows nothing: a space in the default style.
    @inline(__always)
    package var isBlank: Bool { scalar == " " && cluster == 0 && width == 1 && style.isDefault }

    /// Appends the cell's character as UTF-8.
    @inline(__always)
    func appendCharacter(to bytes: inout [UInt8]) {
        if cluster == 0, scalar.value < 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: scalar.value))
        } else if cluster == 0 {
            bytes += UTF8.encode(scalar).map { Array($0) } ?? []
        } else {
            bytes += ClusterTable.character(cluster).utf8
        }
    }
}

/// The grapheme clusters of more than one character that screens have shown, each given a
/// number once, for the life of the process: few are different (accented letters, emoji
/// sequences), and cells stay plain values. Past ``limit`` different ones, a new cluster is
/// shown as its first character.
package enum ClusterTable {
    /// The most different clusters kept.
    package static let limit = 65_536

    private static let table = Mutex<(clusters: [Character], numbers: [Character: UInt32])>(([" "], [:]))

    /// The number of `character`, given one when it has none; 0 when the table is full.
    static func number(of character: Character) -> UInt32 {
        table.withLock { table in
            if let number = table.numbers[character] { return number }
            guard table.clusters.count < limit else { return 0 }
            let number = UInt32(table.clusters.count)
            table.clusters.append(character)
            table.numbers[character] = number
            return number
        }
    }

    /// The cluster numbered `number`.
    static func character(_ number: UInt32) -> Character {
        table.withLock { $0.clusters[Int(number)] }
    }
}
