#import "ZPSSettings.h"

@implementation ZPSSettings

+ (NSString *)apiURL {
    NSString *fromEnvironment = NSProcessInfo.processInfo.environment[@"ZEROPII_API_URL"];
    if (fromEnvironment.length > 0) {
        return fromEnvironment;
    }
    NSString *fromInfo = [NSBundle.mainBundle objectForInfoDictionaryKey:@"ZeroPiiApiURL"];
    if (fromInfo.length > 0 && ![fromInfo hasPrefix:@"$("]) {
        return fromInfo;
    }
    return @"http://127.0.0.1:8080/";
}

@end
