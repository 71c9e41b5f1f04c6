#import "ZPSAppDelegate.h"
#import "ZPSMockServerTokenProvider.h"
#import "ZPSSettings.h"
#import "ZPSTokenizeViewController.h"
@import CleverTapZeroPiiSDK;

@implementation ZPSAppDelegate

- (BOOL)application:(UIApplication *)application
    didFinishLaunchingWithOptions:(NSDictionary *)launchOptions {
    NSString *apiURL = [ZPSSettings apiURL];
    [ZeroPiiSDK initializeWithTokenProvider:[[ZPSMockServerTokenProvider alloc] initWithAPIURL:apiURL]
                                     apiUrl:apiURL
                                   logLevel:ZeroPiiLogLevelDebug];

    self.window = [[UIWindow alloc] initWithFrame:UIScreen.mainScreen.bounds];
    self.window.rootViewController = [ZPSTokenizeViewController new];
    [self.window makeKeyAndVisible];
    return YES;
}

@end
