/* A slower disk for bench/load.py --slow-disk: every fsync and fdatasync of the process it is
   preloaded into (LD_PRELOAD) waits SLOW_DISK_MICROSECONDS first, then syncs as it would. SQLite's
   own syncs (a checkpoint, a log started over) are C calls no Python code can slow. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void wait_for_the_disk(void) {
    const char *said = getenv("SLOW_DISK_MICROSECONDS");
    long us = said ? atol(said) : 0;
    struct timespec pause = {us / 1000000, (us % 1000000) * 1000};
    if (us > 0) nanosleep(&pause, NULL);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    wait_for_the_disk();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    wait_for_the_disk();
    return real(fd);
}
