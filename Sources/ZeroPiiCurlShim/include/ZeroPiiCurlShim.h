// The few libcurl calls the curl transport makes, loaded at run time.
//
// The Swift toolchain on Linux ships FoundationNetworking, which needs `libcurl.so.4`, so
// that library is on every machine that runs this package; its development headers are
// not. This header declares what the transport uses, with libcurl's own numbers, and
// `ZeroPiiCurlShim.c` finds each function with `dlsym`. Everything here takes and returns
// plain C types, so Swift calls it without libcurl's variadic `curl_easy_setopt`.
//
// The numbers below are libcurl's stable ABI (curl.h, multi.h): they have not changed
// since the versions that introduced them and cannot, without a new soname.

#ifndef ZEROPII_CURL_SHIM_H
#define ZEROPII_CURL_SHIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct zp_curl_easy zp_curl_easy;
typedef struct zp_curl_multi zp_curl_multi;
typedef struct zp_curl_slist zp_curl_slist;

typedef size_t (*zp_curl_data_callback)(char *bytes, size_t size, size_t count, void *context);
/// CURLOPT_PREREQFUNCTION's callback: called right before each time a request is sent.
/// Returns 0 to send it, 1 to abort the transfer (CURLE_ABORTED_BY_CALLBACK).
typedef int (*zp_curl_prerequest_callback)(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port);

// CURLoption values.
enum {
    ZP_CURLOPT_WRITEDATA = 10001,
    ZP_CURLOPT_URL = 10002,
    ZP_CURLOPT_PROXY = 10004,
    ZP_CURLOPT_ERRORBUFFER = 10010,
    ZP_CURLOPT_WRITEFUNCTION = 20011,
    ZP_CURLOPT_POSTFIELDS = 10015,
    ZP_CURLOPT_HTTPHEADER = 10023,
    ZP_CURLOPT_HEADERDATA = 10029,
    ZP_CURLOPT_CUSTOMREQUEST = 10036,
    ZP_CURLOPT_NOBODY = 44,
    ZP_CURLOPT_POST = 47,
    ZP_CURLOPT_SSL_VERIFYPEER = 64,
    ZP_CURLOPT_CAINFO = 10065,
    ZP_CURLOPT_HTTPGET = 80,
    ZP_CURLOPT_SSL_VERIFYHOST = 81,
    ZP_CURLOPT_HTTP_VERSION = 84,
    ZP_CURLOPT_HEADERFUNCTION = 20079,
    ZP_CURLOPT_NOSIGNAL = 99,
    ZP_CURLOPT_PRIVATE = 10103,
    ZP_CURLOPT_POSTFIELDSIZE_LARGE = 30120,
    ZP_CURLOPT_TIMEOUT_MS = 155,
    ZP_CURLOPT_PROTOCOLS = 181,
    ZP_CURLOPT_PINNEDPUBLICKEY = 10230,
    ZP_CURLOPT_PREREQFUNCTION = 20312,
    ZP_CURLOPT_PREREQDATA = 10313,
    ZP_CURLOPT_PROTOCOLS_STR = 10318,
};

// CURLMoption values.
enum {
    ZP_CURLMOPT_MAXCONNECTS = 6,
    ZP_CURLMOPT_MAX_HOST_CONNECTIONS = 7,
    ZP_CURLMOPT_MAX_TOTAL_CONNECTIONS = 13,
};

// CURLINFO values, the version feature bit for HTTP/2, protocol bits and others.
enum {
    ZP_CURLINFO_RESPONSE_CODE = 0x200002,
    ZP_CURL_HTTP_VERSION_2TLS = 4,
    ZP_CURL_VERSION_HTTP2 = 1 << 16,
    ZP_CURLPROTO_HTTP = 1,
    ZP_CURLPROTO_HTTPS = 2,
    ZP_CURL_ERROR_SIZE = 256,
};

// CURLcode values the transport tells apart.
enum {
    ZP_CURLE_OK = 0,
    ZP_CURLE_UNSUPPORTED_PROTOCOL = 1,
    ZP_CURLE_URL_MALFORMAT = 3,
    ZP_CURLE_COULDNT_RESOLVE_PROXY = 5,
    ZP_CURLE_COULDNT_RESOLVE_HOST = 6,
    ZP_CURLE_COULDNT_CONNECT = 7,
    ZP_CURLE_WRITE_ERROR = 23,
    ZP_CURLE_OPERATION_TIMEDOUT = 28,
    ZP_CURLE_ABORTED_BY_CALLBACK = 42,
    ZP_CURLE_GOT_NOTHING = 52,
    ZP_CURLE_PEER_FAILED_VERIFICATION = 60,
    ZP_CURLE_SSL_PINNEDPUBKEYNOTMATCH = 90,
};

/// Loads libcurl (`libcurl.so.4`) once for the process, finds every function this header
/// wraps and initialises the library. Returns 0 when all of that worked; otherwise a
/// short reason that is safe to log (no path the user chose, no personal data). Safe to
/// call from any thread, any number of times.
const char *zp_curl_load(void);

/// libcurl's version as 0xXXYYZZ, and its feature bits; 0 before a successful load.
unsigned int zp_curl_version_number(void);
int zp_curl_features(void);

/// Whether OpenSSL, as libcurl uses it for CURLOPT_CAINFO, reads the file at `path` as
/// certificate authorities: 1 it does, 0 it refuses the file (a request would fail with
/// curl error 77), -1 cannot be told (libcurl not loaded, or built on another TLS library).
int zp_curl_ca_file_loads(const char *path);

zp_curl_easy *zp_curl_easy_init(void);
void zp_curl_easy_cleanup(zp_curl_easy *easy);
void zp_curl_easy_reset(zp_curl_easy *easy);
int zp_curl_easy_setopt_long(zp_curl_easy *easy, int option, long value);
int zp_curl_easy_setopt_string(zp_curl_easy *easy, int option, const char *value);
int zp_curl_easy_setopt_pointer(zp_curl_easy *easy, int option, const void *value);
int zp_curl_easy_setopt_offset(zp_curl_easy *easy, int option, int64_t value);
int zp_curl_easy_setopt_callback(zp_curl_easy *easy, int option, zp_curl_data_callback callback);
/// Sets CURLOPT_PREREQFUNCTION (libcurl 7.80 and later; an older one answers with
/// CURLE_UNKNOWN_OPTION).
int zp_curl_easy_setopt_prerequest(zp_curl_easy *easy, zp_curl_prerequest_callback callback);
int zp_curl_easy_getinfo_long(zp_curl_easy *easy, int info, long *value);

zp_curl_slist *zp_curl_slist_append(zp_curl_slist *list, const char *line);
void zp_curl_slist_free_all(zp_curl_slist *list);

zp_curl_multi *zp_curl_multi_init(void);
int zp_curl_multi_cleanup(zp_curl_multi *multi);
int zp_curl_multi_setopt_long(zp_curl_multi *multi, int option, long value);
int zp_curl_multi_add_handle(zp_curl_multi *multi, zp_curl_easy *easy);
int zp_curl_multi_remove_handle(zp_curl_multi *multi, zp_curl_easy *easy);
int zp_curl_multi_perform(zp_curl_multi *multi, int *running);
/// Waits for activity, libcurl's own timers, a wakeup or `timeout_ms`, whichever comes
/// first.
int zp_curl_multi_poll(zp_curl_multi *multi, int timeout_ms);
int zp_curl_multi_wakeup(zp_curl_multi *multi);
/// The next finished transfer: returns its easy handle and stores its result in
/// `result`, or returns NULL when no transfer has finished.
zp_curl_easy *zp_curl_multi_next_done(zp_curl_multi *multi, int *result);

#endif
