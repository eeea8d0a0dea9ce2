import Foundation
import Testing

@testable import ActivityRendering

/// The default colours must be readable on a dark and on a light terminal: each foreground the
/// display uses is checked by its WCAG 2 contrast ratio against the background of a typical dark
/// theme and of a typical light one, with the 16 ANSI colours as those themes define them.
@Suite("Default colours are readable on dark and light backgrounds")
struct ColorContrastTests {
    typealias RGB = (red: Int, green: Int, blue: Int)

    /// xterm's default palette (the values of its resources `color0`…`color15`, as in xterm's
    /// `XTerm-col.ad`), which most dark themes follow closely; with a black background.
    static let xterm: [RGB] = [
        (0x00, 0x00, 0x00), (0xCD, 0x00, 0x00), (0x00, 0xCD, 0x00), (0xCD, 0xCD, 0x00),
        (0x00, 0x00, 0xEE), (0xCD, 0x00, 0xCD), (0x00, 0xCD, 0xCD), (0xE5, 0xE5, 0xE5),
        (0x7F, 0x7F, 0x7F), (0xFF, 0x00, 0x00), (0x00, 0xFF, 0x00), (0xFF, 0xFF, 0x00),
        (0x5C, 0x5C, 0xFF), (0xFF, 0x00, 0xFF), (0x00, 0xFF, 0xFF), (0xFF, 0xFF, 0xFF),
    ]

    /// The Tango palette, GNOME Terminal's built-in "Tango" scheme (its default for years, from
    /// the Tango Desktop Project's colour guidelines); with a white background, as its light
    /// profile has.
    static let tango: [RGB] = [
        (0x00, 0x00, 0x00), (0xCC, 0x00, 0x00), (0x4E, 0x9A, 0x06), (0xC4, 0xA0, 0x00),
        (0x34, 0x65, 0xA4), (0x75, 0x50, 0x7B), (0x06, 0x98, 0x9A), (0xD3, 0xD7, 0xCF),
        (0x55, 0x57, 0x53), (0xEF, 0x29, 0x29), (0x8A, 0xE2, 0x34), (0xFC, 0xE9, 0x4F),
        (0x72, 0x9F, 0xCF), (0xAD, 0x7F, 0xA8), (0x34, 0xE2, 0xE2), (0xEE, 0xEE, 0xEC),
    ]

    static let black: RGB = (0, 0, 0)
    static let white: RGB = (0xFF, 0xFF, 0xFF)

    /// 3:1 is WCAG 2's minimum for large or bold text and for the parts of a user interface one
    /// must make out (1.4.3 and 1.4.11). The coloured parts of the display are marks (✔ ✖),
    /// bars, spinners and short labels beside plain text in the default colour, not body text,
    /// so 4.5:1 (body text) would rule out every colour but red and magenta for no gain.
    static let threshold = 3.0

    /// WCAG 2 relative luminance.
    static func luminance(_ color: RGB) -> Double {
        func channel(_ value: Int) -> Double {
            let c = Double(value) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(color.red) + 0.7152 * channel(color.green) + 0.0722 * channel(color.blue)
    }

    static func contrast(_ a: RGB, _ b: RGB) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// The palette entries SGR `parameters` can show: each foreground (30–37, bright 90–97),
    /// and for a bold one also the bright variant (terminals that show bold as bright). `nil`
    /// when a parameter is one this test cannot judge (a 256-colour or RGB foreground, a
    /// background, reverse video): a default must stay within what is checked here.
    static func colors(of parameters: String, in palette: [RGB]) -> [RGB]? {
        let numbers = parameters.split(separator: ";").map { Int($0) ?? -1 }
        let bold = numbers.contains(1)
        var result: [RGB] = []
        for code in numbers {
            switch code {
            case 1, 2, 22, 39: continue  // bold, dim, their reset, the default foreground
            case 30...37: result += bold ? [palette[code - 30], palette[code - 30 + 8]] : [palette[code - 30]]
            case 90...97: result.append(palette[code - 90 + 8])
            default: return nil
            }
        }
        return result
    }

    @Test("the WCAG contrast of a known pair")
    func formula() {
        #expect(abs(Self.contrast(Self.black, Self.white) - 21) < 0.001)
        // Tango's yellow on white: the one that used to be a default.
        #expect(Self.contrast(Self.tango[3], Self.white) < Self.threshold)
        // It would fail the check of a role's default.
        #expect(Self.colors(of: "33", in: Self.tango)!.allSatisfy { Self.contrast($0, Self.white) < Self.threshold })
    }

    @Test("every role's default foreground reaches 3:1 on xterm's colours on black and Tango's on white")
    func defaults() throws {
        let themes = [("xterm on black", Self.xterm, Self.black), ("Tango on white", Self.tango, Self.white)]
        let theme = ColorTheme()
        var checked = 0
        for role in ColorRole.allCases {
            #expect(theme[role] == role.defaultParameters)
            for (name, palette, background) in themes {
                let colors = try #require(
                    Self.colors(of: role.defaultParameters, in: palette),
                    "\(role.name)=\(role.defaultParameters) is not a colour this test can check")
                for color in colors {
                    checked += 1
                    let ratio = Self.contrast(color, background)
                    #expect(ratio >= Self.threshold, "\(role.name) on \(name): \(ratio)")
                }
            }
        }
        #expect(checked > 8)
    }
}
