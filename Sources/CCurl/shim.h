// libcurl's easy interface (libcurl4-openssl-dev): headers only. forcezoom opens libcurl.so.4
// on the first URL (CFZCurl/fz_curl_loader.c says why), so runs on files never load it.
// curl_easy_setopt is variadic (Swift cannot call it): CFZCurl sets every option in C.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
