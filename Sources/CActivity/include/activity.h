/* libactivity: filled in by the C shim issue. */
