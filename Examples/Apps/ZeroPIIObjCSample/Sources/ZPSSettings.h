#import <Foundation/Foundation.h>

/// Where the sample finds the tokenization API: the ZEROPII_API_URL environment variable
/// when the scheme sets it, else Info.plist's ZeroPiiApiURL (project.yml's build setting),
/// else the mock server on this Mac.
@interface ZPSSettings : NSObject
+ (NSString *)apiURL;
@end
