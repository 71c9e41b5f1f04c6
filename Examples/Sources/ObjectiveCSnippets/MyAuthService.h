#if defined(__APPLE__) || defined(ZEROPII_OBJC_CHECK)
#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

/// Stands for the app's own auth system in these snippets: a backend endpoint that returns
/// {"access_token": "...", "expires_in": 3600} for the signed-in user.
@interface MyAuthService : NSObject

@property (class, nonatomic, readonly) MyAuthService *shared;

/// Calls `callback` once: with the token and its lifetime in seconds, or with an error.
- (void)getTokenWithCallback:(void (^)(NSString *_Nullable token, NSInteger expiresIn, NSError *_Nullable error))callback;

@end

NS_ASSUME_NONNULL_END
#endif
