#import <UIKit/UIKit.h>

/// One field, a single and a batch tokenize button, and the result, in UIKit.
@interface ZPSTokenizeViewController : UIViewController
@end
