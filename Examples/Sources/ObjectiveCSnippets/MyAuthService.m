#if defined(__APPLE__) || defined(ZEROPII_OBJC_CHECK)
#import "MyAuthService.h"

@implementation MyAuthService

+ (MyAuthService *)shared {
    static MyAuthService *service;
    static dispatch_once_t once;
    dispatch_once(&once, ^{
        service = [MyAuthService new];
    });
    return service;
}

- (void)getTokenWithCallback:(void (^)(NSString *_Nullable, NSInteger, NSError *_Nullable))callback {
    NSURL *endpoint = [NSURL URLWithString:@"https://your-backend.example.com/zeropii/token"];
    [[NSURLSession.sharedSession dataTaskWithURL:endpoint
                               completionHandler:^(NSData *data, NSURLResponse *response, NSError *error) {
        NSInteger status = [response isKindOfClass:[NSHTTPURLResponse class]] ? ((NSHTTPURLResponse *)response).statusCode : 0;
        NSDictionary *json = (data && status == 200) ? [NSJSONSerialization JSONObjectWithData:data options:0 error:NULL] : nil;
        NSString *token = [json isKindOfClass:[NSDictionary class]] ? json[@"access_token"] : nil;
        if (![token isKindOfClass:[NSString class]]) {
            callback(nil, 0, error ?: [NSError errorWithDomain:@"MyAuthService" code:status userInfo:nil]);
            return;
        }
        NSNumber *expiresIn = json[@"expires_in"];
        callback(token, [expiresIn isKindOfClass:[NSNumber class]] ? expiresIn.integerValue : 0, nil);
    }] resume];
}

@end
#endif
