/// A title and message ready to draw, with the state's text they came from (to notice a change).
final class DisplayText {
    let rawTitle: String
    let rawMessage: String?
    let title: String
    let titleWidth: Int
    let message: String?
    let messageWidth: Int

    init(rawTitle: String, rawMessage: String?, title: String, titleWidth: Int, message: String?, messageWidth: Int) {
        self.rawTitle = rawTitle
        self.rawMessage = rawMessage
        self.title = title
        self.titleWidth = titleWidth
        self.message = message
        self.messageWidth = messageWidth
    }
}
