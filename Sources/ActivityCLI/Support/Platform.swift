// The command is built for Linux only, for now. The libraries it uses have a Darwin path of
// their own (sockets, SIGPIPE, the environment: ActivityPOSIX), but `activity` itself restarts
// itself through `/proc/self/exe` under `run`, handles `SIGPWR`, reads control pipes through
// `/proc/self/fd` and links `libdl` for libcurl: see Docs/architecture.md, "Platforms".
#if !os(Linux)
    #error("activity (the command) is not supported on this platform yet: it is built for Linux only")
#endif
