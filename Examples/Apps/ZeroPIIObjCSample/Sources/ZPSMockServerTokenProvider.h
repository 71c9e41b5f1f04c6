#import <Foundation/Foundation.h>
@import CleverTapZeroPiiSDK;

/// Gets access tokens from the mock server's OAuth endpoint with its demo client
/// (`zeropii serve --demo-client`). Only a sample does this: a real app asks its own
/// backend and never holds a client secret.
@interface ZPSMockServerTokenProvider : NSObject <AccessTokenProvider>
- (instancetype)initWithAPIURL:(NSString *)apiURL NS_DESIGNATED_INITIALIZER;
- (instancetype)init NS_UNAVAILABLE;
@end
