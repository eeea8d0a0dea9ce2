// The public header compiles as C++ (extern "C" guards) and links against the C library.
#include <activity.h>

#include <cstdio>
#include <cstring>

int main()
{
    activity *a = activity_begin(nullptr, "from C++", 2, nullptr);
    int advanced = activity_advance(a, 2);
    int ended = activity_end(a, ACTIVITY_STATUS_SUCCESS, nullptr);
    bool ok = a != nullptr && advanced == 0 && ended == 0 && std::strcmp(activity_version(), ACTIVITY_VERSION_STRING) == 0;
    std::printf("%s\n", ok ? "C++ ok" : "C++ FAILED");
    return ok ? 0 : 1;
}
