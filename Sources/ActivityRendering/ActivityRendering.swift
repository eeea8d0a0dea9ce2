// The ActivityRendering module: see the issue that builds it.
