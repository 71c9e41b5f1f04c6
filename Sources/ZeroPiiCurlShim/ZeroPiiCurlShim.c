// Loads libcurl at run time; see ZeroPiiCurlShim.h for why.

#include "ZeroPiiCurlShim.h"

#if defined(__linux__)

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

// libcurl's CURLMsg and the head of curl_version_info_data, as curl.h and multi.h lay
// them out.
struct zp_curl_message {
    int kind;
    zp_curl_easy *easy;
    union {
        void *whatever;
        int result;
    } data;
};
enum { ZP_CURLMSG_DONE = 1, ZP_CURL_GLOBAL_ALL = 3 };
struct zp_curl_version_head {
    int age;
    const char *version;
    unsigned int version_num;
    const char *host;
    int features;
    const char *ssl_version;
};

static struct {
    int (*global_init)(long);
    struct zp_curl_version_head *(*version_info)(int);
    zp_curl_easy *(*easy_init)(void);
    void (*easy_cleanup)(zp_curl_easy *);
    void (*easy_reset)(zp_curl_easy *);
    int (*easy_setopt)(zp_curl_easy *, int, ...);
    int (*easy_getinfo)(zp_curl_easy *, int, ...);
    zp_curl_slist *(*slist_append)(zp_curl_slist *, const char *);
    void (*slist_free_all)(zp_curl_slist *);
    zp_curl_multi *(*multi_init)(void);
    int (*multi_cleanup)(zp_curl_multi *);
    int (*multi_setopt)(zp_curl_multi *, int, ...);
    int (*multi_add_handle)(zp_curl_multi *, zp_curl_easy *);
    int (*multi_remove_handle)(zp_curl_multi *, zp_curl_easy *);
    int (*multi_perform)(zp_curl_multi *, int *);
    int (*multi_poll)(zp_curl_multi *, void *, unsigned int, int, int *);
    int (*multi_wakeup)(zp_curl_multi *);
    struct zp_curl_message *(*multi_info_read)(zp_curl_multi *, int *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_failure = "libcurl was not loaded";
static unsigned int version_number;
static int features;
static const char *ssl_version;

#define FIND(field, name)                                  \
    do {                                                   \
        *(void **)(&curl.field) = dlsym(library, name);    \
        if (curl.field == NULL) {                          \
            load_failure = "libcurl lacks " name;          \
            return;                                        \
        }                                                  \
    } while (0)

static void load(void) {
    // The soname FoundationNetworking itself links, usually already in the process.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        load_failure = "libcurl.so.4 could not be loaded";
        return;
    }
    FIND(global_init, "curl_global_init");
    FIND(version_info, "curl_version_info");
    FIND(easy_init, "curl_easy_init");
    FIND(easy_cleanup, "curl_easy_cleanup");
    FIND(easy_reset, "curl_easy_reset");
    FIND(easy_setopt, "curl_easy_setopt");
    FIND(easy_getinfo, "curl_easy_getinfo");
    FIND(slist_append, "curl_slist_append");
    FIND(slist_free_all, "curl_slist_free_all");
    FIND(multi_init, "curl_multi_init");
    FIND(multi_cleanup, "curl_multi_cleanup");
    FIND(multi_setopt, "curl_multi_setopt");
    FIND(multi_add_handle, "curl_multi_add_handle");
    FIND(multi_remove_handle, "curl_multi_remove_handle");
    FIND(multi_perform, "curl_multi_perform");
    // curl_multi_poll and curl_multi_wakeup came with libcurl 7.68 (January 2020).
    FIND(multi_poll, "curl_multi_poll");
    FIND(multi_wakeup, "curl_multi_wakeup");
    FIND(multi_info_read, "curl_multi_info_read");
    // Thread-safe from libcurl 7.84 on; before that, once per process is what matters,
    // and FoundationNetworking's own call is idempotent with this one.
    if (curl.global_init(ZP_CURL_GLOBAL_ALL) != ZP_CURLE_OK) {
        load_failure = "curl_global_init failed";
        return;
    }
    struct zp_curl_version_head *info = curl.version_info(0);
    if (info == NULL || info->version_num < 0x074400) {
        load_failure = "libcurl is older than 7.68";
        return;
    }
    version_number = info->version_num;
    features = info->features;
    ssl_version = info->ssl_version;
    load_failure = NULL;
}

const char *zp_curl_load(void) {
    pthread_once(&load_once, load);
    return load_failure;
}

unsigned int zp_curl_version_number(void) { return version_number; }
int zp_curl_features(void) { return features; }

int zp_curl_ca_file_loads(const char *path) {
    if (zp_curl_load() != NULL || ssl_version == NULL) return -1;
    // The libcrypto that libcurl's OpenSSL backend brought into the process; libcurl
    // built on another TLS library reads the file with that one, and nothing is said.
    const char *name;
    if (strncmp(ssl_version, "OpenSSL/3.", 10) == 0) {
        name = "libcrypto.so.3";
    } else if (strncmp(ssl_version, "OpenSSL/1.1", 11) == 0) {
        name = "libcrypto.so.1.1";
    } else {
        return -1;
    }
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (library == NULL) return -1;
    void *(*store_new)(void);
    int (*load_locations)(void *, const char *, const char *);
    void (*store_free)(void *);
    void (*clear_error)(void);
    *(void **)(&store_new) = dlsym(library, "X509_STORE_new");
    *(void **)(&load_locations) = dlsym(library, "X509_STORE_load_locations");
    *(void **)(&store_free) = dlsym(library, "X509_STORE_free");
    *(void **)(&clear_error) = dlsym(library, "ERR_clear_error");
    int verdict = -1;
    void *store = NULL;
    if (store_new != NULL && load_locations != NULL && store_free != NULL && clear_error != NULL && (store = store_new()) != NULL) {
        // What libcurl's OpenSSL backend does with CURLOPT_CAINFO, into a store of its own.
        verdict = load_locations(store, path, NULL) == 1 ? 1 : 0;
        store_free(store);
        // A refusal leaves OpenSSL's reasons on this thread's error queue.
        clear_error();
    }
    dlclose(library);
    return verdict;
}

zp_curl_easy *zp_curl_easy_init(void) { return curl.easy_init(); }
void zp_curl_easy_cleanup(zp_curl_easy *easy) { curl.easy_cleanup(easy); }
void zp_curl_easy_reset(zp_curl_easy *easy) { curl.easy_reset(easy); }

int zp_curl_easy_setopt_long(zp_curl_easy *easy, int option, long value) { return curl.easy_setopt(easy, option, value); }

int zp_curl_easy_setopt_string(zp_curl_easy *easy, int option, const char *value) {
    // libcurl copies every string option it is given (all but POSTFIELDS, which this
    // transport passes as a pointer).
    return curl.easy_setopt(easy, option, value);
}

int zp_curl_easy_setopt_pointer(zp_curl_easy *easy, int option, const void *value) {
    return curl.easy_setopt(easy, option, value);
}

int zp_curl_easy_setopt_offset(zp_curl_easy *easy, int option, int64_t value) {
    // curl_off_t is 64 bits wide on every platform libcurl supports.
    return curl.easy_setopt(easy, option, value);
}

int zp_curl_easy_setopt_callback(zp_curl_easy *easy, int option, zp_curl_data_callback callback) {
    return curl.easy_setopt(easy, option, callback);
}

int zp_curl_easy_setopt_prerequest(zp_curl_easy *easy, zp_curl_prerequest_callback callback) {
    return curl.easy_setopt(easy, ZP_CURLOPT_PREREQFUNCTION, callback);
}

int zp_curl_easy_getinfo_long(zp_curl_easy *easy, int info, long *value) { return curl.easy_getinfo(easy, info, value); }

zp_curl_slist *zp_curl_slist_append(zp_curl_slist *list, const char *line) { return curl.slist_append(list, line); }
void zp_curl_slist_free_all(zp_curl_slist *list) { curl.slist_free_all(list); }

zp_curl_multi *zp_curl_multi_init(void) { return curl.multi_init(); }
int zp_curl_multi_cleanup(zp_curl_multi *multi) { return curl.multi_cleanup(multi); }
int zp_curl_multi_setopt_long(zp_curl_multi *multi, int option, long value) { return curl.multi_setopt(multi, option, value); }
int zp_curl_multi_add_handle(zp_curl_multi *multi, zp_curl_easy *easy) { return curl.multi_add_handle(multi, easy); }
int zp_curl_multi_remove_handle(zp_curl_multi *multi, zp_curl_easy *easy) { return curl.multi_remove_handle(multi, easy); }
int zp_curl_multi_perform(zp_curl_multi *multi, int *running) { return curl.multi_perform(multi, running); }
int zp_curl_multi_poll(zp_curl_multi *multi, int timeout_ms) { return curl.multi_poll(multi, NULL, 0, timeout_ms, NULL); }
int zp_curl_multi_wakeup(zp_curl_multi *multi) { return curl.multi_wakeup(multi); }

zp_curl_easy *zp_curl_multi_next_done(zp_curl_multi *multi, int *result) {
    int remaining = 0;
    struct zp_curl_message *message;
    while ((message = curl.multi_info_read(multi, &remaining)) != NULL) {
        if (message->kind == ZP_CURLMSG_DONE) {
            *result = message->data.result;
            return message->easy;
        }
    }
    return NULL;
}

#else

// Apple platforms use URLSession; the loader reports libcurl as unavailable there and
// nothing else is ever called.
const char *zp_curl_load(void) { return "the curl transport is built for Linux only"; }
unsigned int zp_curl_version_number(void) { return 0; }
int zp_curl_features(void) { return 0; }
int zp_curl_ca_file_loads(const char *path) { (void)path; return -1; }
zp_curl_easy *zp_curl_easy_init(void) { return NULL; }
void zp_curl_easy_cleanup(zp_curl_easy *easy) { (void)easy; }
void zp_curl_easy_reset(zp_curl_easy *easy) { (void)easy; }
int zp_curl_easy_setopt_long(zp_curl_easy *easy, int option, long value) { (void)easy; (void)option; (void)value; return -1; }
int zp_curl_easy_setopt_string(zp_curl_easy *easy, int option, const char *value) { (void)easy; (void)option; (void)value; return -1; }
int zp_curl_easy_setopt_pointer(zp_curl_easy *easy, int option, const void *value) { (void)easy; (void)option; (void)value; return -1; }
int zp_curl_easy_setopt_offset(zp_curl_easy *easy, int option, int64_t value) { (void)easy; (void)option; (void)value; return -1; }
int zp_curl_easy_setopt_callback(zp_curl_easy *easy, int option, zp_curl_data_callback callback) { (void)easy; (void)option; (void)callback; return -1; }
int zp_curl_easy_setopt_prerequest(zp_curl_easy *easy, zp_curl_prerequest_callback callback) { (void)easy; (void)callback; return -1; }
int zp_curl_easy_getinfo_long(zp_curl_easy *easy, int info, long *value) { (void)easy; (void)info; (void)value; return -1; }
zp_curl_slist *zp_curl_slist_append(zp_curl_slist *list, const char *line) { (void)list; (void)line; return NULL; }
void zp_curl_slist_free_all(zp_curl_slist *list) { (void)list; }
zp_curl_multi *zp_curl_multi_init(void) { return NULL; }
int zp_curl_multi_cleanup(zp_curl_multi *multi) { (void)multi; return -1; }
int zp_curl_multi_setopt_long(zp_curl_multi *multi, int option, long value) { (void)multi; (void)option; (void)value; return -1; }
int zp_curl_multi_add_handle(zp_curl_multi *multi, zp_curl_easy *easy) { (void)multi; (void)easy; return -1; }
int zp_curl_multi_remove_handle(zp_curl_multi *multi, zp_curl_easy *easy) { (void)multi; (void)easy; return -1; }
int zp_curl_multi_perform(zp_curl_multi *multi, int *running) { (void)multi; *running = 0; return -1; }
int zp_curl_multi_poll(zp_curl_multi *multi, int timeout_ms) { (void)multi; (void)timeout_ms; return -1; }
int zp_curl_multi_wakeup(zp_curl_multi *multi) { (void)multi; return -1; }
zp_curl_easy *zp_curl_multi_next_done(zp_curl_multi *multi, int *result) { (void)multi; (void)result; return NULL; }

#endif
