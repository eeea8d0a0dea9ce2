/// Builds the display the options ask for.
enum DisplayFactory {
    static func make(_ options: DisplayOptions) throws(DisplayError) -> any Display {
        switch options.mode {
        case .jsonl: return JSONLinesDisplay()
        default: throw DisplayError(message: "--mode \(options.mode.rawValue) is not available", exitStatus: ExitCode.unavailable)
        }
    }
}
