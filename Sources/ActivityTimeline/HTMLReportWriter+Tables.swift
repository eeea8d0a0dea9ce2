import ActivityWire

/// The report's tables: the critical path, the failures with their log lines, the slowest
/// activities. They are plain HTML: they print, and a screen reader reads them.
extension HTMLReportWriter {
    func criticalPathSection(_ page: ReportPage) -> String {
        let skeleton = page.plan.skeleton
        var html = """
            <section id="critical-path">
            <h2>Critical path</h2>
            <p class="muted">The chain of activities that decided the total time: from the activity that ended \
            last, back through what it waited for (its last child to end, and the sibling that ended last before \
            it started). Making anything else faster would not have ended the run sooner.</p>
            <div class="table-scroll"><table>
            <thead><tr><th>Activity</th><th>Status</th><th class="num">Started</th><th class="num">Duration</th>\
            <th>Share of the run</th></tr></thead>
            <tbody>

            """
        for row in page.plan.pathRows {
            switch row {
            case .activity(let index):
                let activity = page.activity(index)
                let indent = String(repeating: "\u{2003}", count: skeleton.depth(index))
                html +=
                    "<tr><td>\(indent)\(MarkupText.escaped(activity.title))</td><td>\(activity.outcome.label)</td>"
                    + "<td class=\"num\">\(TimelineFormat.offset(activity.start - skeleton.start))</td>"
                    + "<td class=\"num\">\(TimelineFormat.duration(activity.duration))</td>"
                    + "<td>\(shareBar(activity.duration, of: skeleton.duration))</td></tr>\n"
            case .folded(let count, let start, let end):
                html +=
                    "<tr class=\"muted\"><td>… \(count) shorter \(count == 1 ? "activity" : "activities") of the path"
                    + "</td><td></td><td class=\"num\">\(TimelineFormat.offset(start - skeleton.start))</td>"
                    + "<td class=\"num\">\(TimelineFormat.duration(end - start))</td>"
                    + "<td>\(shareBar(end - start, of: skeleton.duration))</td></tr>\n"
            }
        }
        return html + "</tbody>\n</table></div>\n</section>\n"
    }

    func failuresSection(_ page: ReportPage) -> String {
        let skeleton = page.plan.skeleton
        var html = "<section id=\"failures\">\n<h2>Failures</h2>\n"
        guard page.plan.failureCount > 0 else { return html + "<p>Nothing failed.</p>\n</section>\n" }
        for index in page.plan.failures {
            let activity = page.activity(index)
            html +=
                "<div class=\"failure \(activity.outcome.rawValue)\">\n<h3>\(activity.outcome.symbol) "
                + "\(MarkupText.escaped(page.path(of: index).joined(separator: " › ")))</h3>\n<p>"
            var facts = [activity.outcome.rawValue, "after " + TimelineFormat.duration(activity.duration)]
            if activity.outcome == .abandoned { facts.append("it never ended") }
            html += MarkupText.escaped(facts.joined(separator: ", "))
            if let error = activity.error { html += "<br><strong>Error:</strong> \(MarkupText.escaped(error))" }
            if let message = activity.message { html += "<br><strong>Message:</strong> \(MarkupText.escaped(message))" }
            html += "</p>\n"
            if !activity.logs.isEmpty {
                html += "<pre class=\"log\">"
                for log in activity.logs.prefix(logLinesPerFailure) {
                    html +=
                        "<span class=\"lv-\(log.level.rawValue)\">\(TimelineFormat.offset(log.time - skeleton.start)) "
                        + "\(log.level.rawValue): \(MarkupText.escaped(log.message))</span>\n"
                }
                let more = activity.logCount - min(activity.logs.count, logLinesPerFailure)
                if more > 0 { html += "… \(more) more lines\n" }
                html += "</pre>\n"
            }
            html += "</div>\n"
        }
        let unlisted = page.plan.failureCount - page.plan.failures.count
        if unlisted > 0 {
            html +=
                "<p class=\"muted\">… and \(unlisted) more (the first \(page.plan.failures.count) are listed).</p>\n"
        }
        return html + "</section>\n"
    }

    func slowestSection(_ page: ReportPage) -> String {
        let skeleton = page.plan.skeleton
        var html = """
            <section id="slowest">
            <h2>Slowest activities</h2>
            <div class="table-scroll"><table>
            <thead><tr><th>Activity</th><th>In</th><th>Status</th><th class="num">Duration</th>\
            <th>Share of the run</th></tr></thead>
            <tbody>

            """
        for index in page.plan.slowest {
            let activity = page.activity(index)
            let parents = page.path(of: index).dropLast().joined(separator: " › ")
            let critical = page.plan.criticalPath.contains(index)
            html +=
                "<tr><td>\(MarkupText.escaped(activity.title))\(critical ? " <small>(critical)</small>" : "")"
                + "</td><td class=\"muted\">\(MarkupText.escaped(parents))</td><td>\(activity.outcome.label)</td>"
                + "<td class=\"num\">\(TimelineFormat.duration(activity.duration))</td>"
                + "<td>\(shareBar(activity.duration, of: skeleton.duration))</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n</section>\n"
    }

    private func shareBar(_ part: Double, of whole: Double) -> String {
        let share = whole > 0 ? min(1, part / whole) : 0
        return "<span class=\"share\" style=\"width:\(TimelineFormat.fixed(share * 120, decimals: 1))px\"></span>"
            + TimelineFormat.percent(part, of: whole)
    }
}
