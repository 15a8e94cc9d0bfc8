// The libudev C API (package libudev-dev), as the CUdev module.
#include <libudev.h>
