/// The colours of the terminal display: SGR parameters for each ``ColorRole``.
///
/// A new theme has every role's ``ColorRole/defaultParameters``. Change roles in code with
/// ``setParameters(_:for:)``, or read a `role=SGR:role=SGR…` text such as the `ACTIVITY_COLORS`
/// variable with ``parse(_:over:)``. Empty parameters mean no colour for that role. A theme only
/// says *which* colours: whether any are drawn is the display's decision (`NO_COLOR`,
/// `CLICOLOR`, a terminal or not), which a theme never overrides.
///
/// ```swift
/// var theme = ColorTheme()
/// try theme.setParameters("34", for: .bar)     // blue bars
/// try theme.setParameters("", for: .detail)    // rates and times in the normal colour
/// let style = TerminalStyle(unicode: true, color: true, colors: theme)
/// ```
public struct ColorTheme: Sendable, Hashable {
    /// The most SGR parameters one role may have: enough for `1;4;38;2;255;128;0` and more.
    public static let maxParameters = 16

    /// SGR parameters that cannot be sent to a terminal; see ``ColorTheme/validate(_:)``.
    public struct InvalidParameters: Error, Sendable, Hashable, CustomStringConvertible {
        /// The parameters as given.
        public var parameters: String
        /// Whether they were rejected only for being too many.
        public var tooMany: Bool

        public var description: String {
            tooMany
                ? "more than \(ColorTheme.maxParameters) SGR parameters"
                : "not SGR parameters (numbers 0-255 separated by ';')"
        }
    }

    /// Each role's parameters, by ``ColorRole/rawValue``.
    private var parameters: [String]
    /// Each role's `CSI … m` sequence, one after another; `offsets[role]..<offsets[role + 1]`
    /// (empty for no colour). Kept flat so the renderer copies bytes without touching an array
    /// per role.
    private var sequences: [UInt8] = []
    private var offsets: [Int] = []

    /// The default theme: every role's ``ColorRole/defaultParameters``.
    public init() {
        parameters = ColorRole.allCases.map(\.defaultParameters)
        encode()
    }

    /// The SGR parameters of `role`: `"1;31"`, or `""` for no colour.
    public subscript(role: ColorRole) -> String { parameters[role.rawValue] }

    /// Colours `role` with SGR `parameters` (`"34"`, `"1;38;5;208"`), or with none when empty.
    ///
    /// - Throws: ``InvalidParameters`` when `parameters` are not numbers 0–255 separated by `;`,
    ///   or more than ``maxParameters`` of them; the role keeps its colour.
    public mutating func setParameters(_ parameters: String, for role: ColorRole) throws(InvalidParameters) {
        try Self.validate(parameters)
        self.parameters[role.rawValue] = parameters
        encode()
    }

    /// Checks that `parameters` can go into `CSI … m` as they are: empty, or 1 to
    /// ``maxParameters`` numbers from 0 to 255 (of at most 3 digits) separated by `;`. Nothing else ever reaches the
    /// terminal.
    public static func validate(_ parameters: String) throws(InvalidParameters) {
        guard !parameters.isEmpty else { return }
        let utf8 = parameters.utf8
        guard utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ";") })
        else { throw InvalidParameters(parameters: parameters, tooMany: false) }
        let numbers = utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        for number in numbers {
            guard (1...3).contains(number.count),
                number.reduce(0, { $0 * 10 + Int($1 - UInt8(ascii: "0")) }) <= 255
            else { throw InvalidParameters(parameters: parameters, tooMany: false) }
        }
        guard numbers.count <= maxParameters else { throw InvalidParameters(parameters: parameters, tooMany: true) }
    }

    public static func == (left: ColorTheme, right: ColorTheme) -> Bool { left.parameters == right.parameters }

    public func hash(into hasher: inout Hasher) { hasher.combine(parameters) }

    // MARK: - Encoding

    private mutating func encode() {
        sequences.removeAll(keepingCapacity: true)
        offsets = [0]
        for parameters in parameters {
            if !parameters.isEmpty {
                sequences += [0x1B, 0x5B] + Array(parameters.utf8) + [0x6D]
            }
            offsets.append(sequences.count)
        }
    }

    /// Whether `role` has a colour.
    func colors(_ role: ColorRole) -> Bool { offsets[role.rawValue + 1] > offsets[role.rawValue] }

    /// Whether `a` and `b` are drawn the same: no role and a role without colour are alike.
    func drawsAlike(_ a: ColorRole?, _ b: ColorRole?) -> Bool {
        let first = a.flatMap { colors($0) ? parameters[$0.rawValue] : nil }
        let second = b.flatMap { colors($0) ? parameters[$0.rawValue] : nil }
        return first == second
    }

    /// Appends the sequence that switches `role`'s colour on; `false`, with nothing appended,
    /// when the role has none.
    @inline(__always)
    func appendSequence(for role: ColorRole, to buffer: ByteBuffer) -> Bool {
        let start = offsets[role.rawValue]
        let end = offsets[role.rawValue + 1]
        guard end > start else { return false }
        sequences.withUnsafeBufferPointer { buffer.append(UnsafeBufferPointer(rebasing: $0[start..<end])) }
        return true
    }

    /// Appends the sequence that switches `role`'s colour on; `false`, with nothing appended,
    /// when the role has none.
    @inline(__always)
    func appendSequence(for role: ColorRole, to out: inout [UInt8]) -> Bool {
        let start = offsets[role.rawValue]
        let end = offsets[role.rawValue + 1]
        guard end > start else { return false }
        out.append(contentsOf: sequences[start..<end])
        return true
    }
}
