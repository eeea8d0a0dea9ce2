/// `activity manpage`: prints `activity(1)`, for packagers and the install script.
enum ManPageCommand {
    static let spec = CommandSpec(
        name: "manpage", summary: "print the activity(1) manual page (roff)", arguments: "",
        description: """
            Prints this command's manual page, generated from the same table as its help, so that
            installed documentation never drifts: activity manpage > activity.1
            """)
    static let parser = OptionParser(spec)

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        try parser.expectPositionals(parsed, 0...0, names: "")
        return ActivityCommand.show(ManPage.activity())
    }
}
