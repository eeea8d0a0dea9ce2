// The ActivityReporting module: see the issue that builds it.
