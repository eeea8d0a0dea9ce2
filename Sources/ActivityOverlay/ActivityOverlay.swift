// The ActivityOverlay module: see the issue that builds it.
