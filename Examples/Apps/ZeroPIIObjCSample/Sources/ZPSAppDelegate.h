#import <UIKit/UIKit.h>

/// Initialises the SDK once at launch, as the reference's Objective-C AppDelegate does,
/// against the URL of the settings (ZPSSettings).
@interface ZPSAppDelegate : UIResponder <UIApplicationDelegate>
@property (strong, nonatomic) UIWindow *window;
@end
