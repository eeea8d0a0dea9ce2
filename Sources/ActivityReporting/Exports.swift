// The event model (`ActivityEvent`, `ActivityID`, `AttributeValue`, `ActivityEventSink`, …) is part
// of this module's API: one `import ActivityReporting` is enough to report progress.
@_exported import ActivityWire
