#import "ZPSTokenizeViewController.h"
#import "ZPSSettings.h"
@import CleverTapZeroPiiSDK;

@implementation ZPSTokenizeViewController {
    UITextField *_field;
    UILabel *_result;
}

- (void)viewDidLoad {
    [super viewDidLoad];
    self.view.backgroundColor = UIColor.systemBackgroundColor;

    UILabel *api = [UILabel new];
    api.text = [@"API: " stringByAppendingString:[ZPSSettings apiURL]];
    api.font = [UIFont preferredFontForTextStyle:UIFontTextStyleFootnote];

    _field = [UITextField new];
    _field.borderStyle = UITextBorderStyleRoundedRect;
    _field.text = @"alice@example.com";
    _field.placeholder = @"Value (comma-separated for a batch)";

    UIButton *single = [UIButton buttonWithType:UIButtonTypeSystem];
    [single setTitle:@"Tokenize" forState:UIControlStateNormal];
    [single addTarget:self action:@selector(tokenize) forControlEvents:UIControlEventTouchUpInside];
    UIButton *batch = [UIButton buttonWithType:UIButtonTypeSystem];
    [batch setTitle:@"Batch" forState:UIControlStateNormal];
    [batch addTarget:self action:@selector(tokenizeBatch) forControlEvents:UIControlEventTouchUpInside];

    _result = [UILabel new];
    _result.numberOfLines = 0;
    _result.text = @"Enter a value and tap Tokenize.";

    UIStackView *buttons = [[UIStackView alloc] initWithArrangedSubviews:@[single, batch]];
    buttons.spacing = 16;
    UIStackView *stack = [[UIStackView alloc] initWithArrangedSubviews:@[api, _field, buttons, _result]];
    stack.axis = UILayoutConstraintAxisVertical;
    stack.spacing = 16;
    stack.translatesAutoresizingMaskIntoConstraints = NO;
    [self.view addSubview:stack];
    UILayoutGuide *margins = self.view.layoutMarginsGuide;
    [NSLayoutConstraint activateConstraints:@[
        [stack.topAnchor constraintEqualToAnchor:self.view.safeAreaLayoutGuide.topAnchor constant:24],
        [stack.leadingAnchor constraintEqualToAnchor:margins.leadingAnchor],
        [stack.trailingAnchor constraintEqualToAnchor:margins.trailingAnchor],
    ]];
}

// The callbacks arrive on the main queue (the SDK's default callback queue), so they may
// update the labels directly.
- (void)tokenize {
    _result.text = @"Tokenizing…";
    [[ZeroPiiSDK getInstance] tokenizeString:_field.text
                                    callback:^(TokenizeResult *result) {
        if (result.isSuccess) {
            self->_result.text = [NSString stringWithFormat:@"Token: %@%@", result.token,
                                  result.newlyCreated ? @" (new)" : @" (existing)"];
        } else {
            self->_result.text = [@"Failed: " stringByAppendingString:result.errorMessage ?: @"unknown error"];
        }
    }];
}

- (void)tokenizeBatch {
    NSMutableArray<NSString *> *values = [NSMutableArray array];
    for (NSString *part in [_field.text componentsSeparatedByString:@","]) {
        [values addObject:[part stringByTrimmingCharactersInSet:NSCharacterSet.whitespaceCharacterSet]];
    }
    _result.text = @"Tokenizing…";
    [[ZeroPiiSDK getInstance] batchTokenizeStringValues:values
                                               callback:^(BatchTokenizeResult *result) {
        if (!result.isSuccess) {
            self->_result.text = [@"Batch failed: " stringByAppendingString:result.errorMessage ?: @"unknown error"];
            return;
        }
        NSMutableArray<NSString *> *lines = [NSMutableArray array];
        for (BatchTokenItem *item in result.results) {
            [lines addObject:[NSString stringWithFormat:@"%@ → %@", item.originalValue, item.token]];
        }
        self->_result.text = [lines componentsJoinedByString:@"\n"];
    }];
}

@end
