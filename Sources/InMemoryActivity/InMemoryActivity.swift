// The InMemoryActivity module: see the issue that builds it.
