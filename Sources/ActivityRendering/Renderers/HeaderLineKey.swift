/// The counts the live region's header shows (`⠋ 3 running · 11/15 done · 1 failed · 12.3s`):
/// the middle of the header is made again only when they change, which is much rarer than the
/// spinner and the elapsed time around it.
struct HeaderLineKey: Equatable {
    var running: Int
    var finished: Int
    var begun: Int
    var failed: Int
    var problems: Int
}
