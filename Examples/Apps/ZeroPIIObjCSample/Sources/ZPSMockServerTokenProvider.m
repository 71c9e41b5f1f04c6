#import "ZPSMockServerTokenProvider.h"

@implementation ZPSMockServerTokenProvider {
    NSURL *_tokenURL;
}

- (instancetype)initWithAPIURL:(NSString *)apiURL {
    if ((self = [super init])) {
        _tokenURL = [NSURL URLWithString:[apiURL stringByAppendingString:@"oauth/token"]];
    }
    return self;
}

// The OAuth2 client-credentials grant; calls completion exactly once, as the SDK requires.
- (void)fetchTokenWithCompletion:(void (^)(AccessTokenInfo * _Nullable, NSError * _Nullable))completion {
    NSMutableURLRequest *request = [NSMutableURLRequest requestWithURL:_tokenURL];
    request.HTTPMethod = @"POST";
    [request setValue:@"application/x-www-form-urlencoded" forHTTPHeaderField:@"Content-Type"];
    request.HTTPBody = [@"grant_type=client_credentials&client_id=zeropii-demo&client_secret=zeropii-demo-secret"
        dataUsingEncoding:NSUTF8StringEncoding];
    [[NSURLSession.sharedSession dataTaskWithRequest:request
                                   completionHandler:^(NSData *data, NSURLResponse *response, NSError *error) {
        NSInteger status = [response isKindOfClass:[NSHTTPURLResponse class]] ? ((NSHTTPURLResponse *)response).statusCode : 0;
        NSDictionary *grant = data ? [NSJSONSerialization JSONObjectWithData:data options:0 error:NULL] : nil;
        NSString *token = [grant isKindOfClass:[NSDictionary class]] ? grant[@"access_token"] : nil;
        if (error || status != 200 || ![token isKindOfClass:[NSString class]]) {
            completion(nil, error ?: [NSError errorWithDomain:@"ZPSMockServerTokenProvider" code:status userInfo:nil]);
            return;
        }
        NSInteger expiresIn = [grant[@"expires_in"] respondsToSelector:@selector(integerValue)] ? [grant[@"expires_in"] integerValue] : 0;
        completion([[AccessTokenInfo alloc] initWithToken:token expiresInSeconds:expiresIn], nil);
    }] resume];
}

@end
