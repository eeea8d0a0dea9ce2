/// Shared set-up for the commands that draw: parse display options, build the display.
extension DisplayOptions {
    /// Builds the display, or prints why not and returns the exit status.
    func makeDisplay(command: String) -> Result<SessionDisplay, DisplayError> {
        do throws(DisplayError) {
            return .success(try DisplayFactory.make(self))
        } catch {
            Console.error(error.message, command: command)
            return .failure(error)
        }
    }
}
