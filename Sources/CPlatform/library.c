#include <dlfcn.h>
#include "CPlatform.h"

const char *nmeastream_load_library(const char *soname, const char *const *names, void **const *slots, size_t count,
                                    char *message, size_t size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        // dlerror's text lives only until the thread's next dl call.
        const char *error = dlerror();
        snprintf(message, size, "%s", error != NULL ? error : "cannot be loaded");
        return message;
    }
    for (size_t i = 0; i < count; i++) {
        *slots[i] = dlsym(library, names[i]);
        if (*slots[i] == NULL) {
            snprintf(message, size, "%s has no %s", soname, names[i]);
            return message;
        }
    }
    return NULL;
}
