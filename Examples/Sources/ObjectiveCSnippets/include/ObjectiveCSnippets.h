// The reference's Objective-C snippets, as a library target that only exists to be
// compiled. Empty where there is no Objective-C runtime (Linux).
#if defined(__APPLE__) || defined(ZEROPII_OBJC_CHECK)
#import <Foundation/Foundation.h>
#endif
