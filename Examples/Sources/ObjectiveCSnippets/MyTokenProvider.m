#if defined(__APPLE__) || defined(ZEROPII_OBJC_CHECK)
#import "MyAuthService.h"
#import "ZeroPiiImport.h"

// Quick Start, step 1 (Objective-C).
@interface MyTokenProvider : NSObject <AccessTokenProvider>
@end

@implementation MyTokenProvider

- (void)fetchTokenWithCompletion:(void (^)(AccessTokenInfo * _Nullable, NSError * _Nullable))completion {
    [MyAuthService.shared getTokenWithCallback:^(NSString *token, NSInteger expiresIn, NSError *error) {
        if (error) {
            completion(nil, error);
        } else {
            AccessTokenInfo *info = [[AccessTokenInfo alloc] initWithToken:token expiresInSeconds:expiresIn];
            completion(info, nil);
        }
    }];
}

@end

// API Reference, RetryPolicy (Objective-C).
@interface MyRetryPolicy : NSObject <RetryPolicy>
@end

@implementation MyRetryPolicy

- (BOOL)shouldRetryWithAttempt:(NSInteger)attempt httpStatusCode:(NSNumber *)httpStatusCode {
    if (attempt >= 3) return NO;
    if (!httpStatusCode) return YES;
    NSArray *retryable = @[@429, @500, @502, @503, @504];
    return [retryable containsObject:httpStatusCode];
}

- (NSInteger)retryDelayMsWithAttempt:(NSInteger)attempt {
    return 1000 * (1 << (attempt + 1));
}

@end

// Quick Start, steps 2 to 4 (Objective-C): initialise, then one value and a batch.
@interface ZeroPiiObjectiveCSnippets : NSObject
@end

@implementation ZeroPiiObjectiveCSnippets

+ (void)initializeSDK {
    [ZeroPiiSDK initializeWithTokenProvider:[MyTokenProvider new]
                                     apiUrl:@"https://your-api-base-url.com"];

    [ZeroPiiSDK initializeWithTokenProvider:[MyTokenProvider new]
                                     apiUrl:@"https://your-api-base-url.com/"
                                   logLevel:ZeroPiiLogLevelDebug
                                retryPolicy:[MyRetryPolicy new]];
}

+ (void)tokenizeOneValue {
    [[ZeroPiiSDK getInstance] tokenizeString:@"alice@example.com"
                                    callback:^(TokenizeResult *result) {
        if (result.isSuccess) {
            NSLog(@"Token: %@, newly created: %d", result.token, result.newlyCreated);
        } else {
            NSLog(@"Failed: %@", result.errorMessage);
        }
    }];
}

+ (void)tokenizeABatch {
    NSArray<NSString *> *emails = @[@"alice@example.com", @"bob@example.com"];

    [[ZeroPiiSDK getInstance] batchTokenizeStringValues:emails
                                               callback:^(BatchTokenizeResult *result) {
        if (result.isSuccess) {
            NSLog(@"Processed: %ld", (long)result.summary.processedCount);
            for (BatchTokenItem *item in result.results) {
                NSLog(@"%@ → %@", item.originalValue, item.token);
            }
        } else {
            NSLog(@"Batch error: %@", result.errorMessage);
        }
    }];
}

@end
#endif
